import type { Database } from "better-sqlite3";
import { blobToFloat32, float32ToBlob } from "../../recall/vector-math.js";

/**
 * The `embedding_cache` table: vectors by (provider, model, content hash), bounded by
 * least-recent access so repeated content never costs a second provider call.
 */
export interface EmbeddingCache {
  get(provider: string, model: string, hashes: readonly string[]): Map<string, Float32Array>;
  put(provider: string, model: string, entries: ReadonlyArray<readonly [string, Float32Array]>): void;
  size(): number;
}

export function createEmbeddingCache(
  db: Database,
  options: { maxEntries: number; now: () => Date },
): EmbeddingCache {
  // One statement for the whole batch: the hashes travel as one JSON array parameter.
  const select = db.prepare<[string, string, string], { content_hash: string; embedding: Buffer }>(
    `SELECT content_hash, embedding FROM embedding_cache WHERE provider = ? AND model = ?
     AND content_hash IN (SELECT value FROM json_each(?))`,
  );
  const touch = db.prepare<[string, string, string, string]>(
    `UPDATE embedding_cache SET accessed_at = ? WHERE provider = ? AND model = ?
     AND content_hash IN (SELECT value FROM json_each(?))`,
  );
  const upsert = db.prepare<[string, string, string, Buffer, string, string]>(
    `INSERT INTO embedding_cache(provider, model, content_hash, embedding, created_at, accessed_at)
     VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT(provider, model, content_hash) DO UPDATE SET embedding = excluded.embedding,
       accessed_at = excluded.accessed_at`,
  );
  const countAll = db.prepare<[], { n: number }>("SELECT count(*) AS n FROM embedding_cache");
  const evict = db.prepare<[number]>(
    "DELETE FROM embedding_cache WHERE rowid IN (SELECT rowid FROM embedding_cache ORDER BY accessed_at ASC, rowid ASC LIMIT ?)",
  );
  let count = countAll.get()?.n ?? 0;

  return {
    get(provider, model, hashes) {
      const found = new Map<string, Float32Array>();
      if (options.maxEntries === 0 || hashes.length === 0) return found;
      const at = options.now().toISOString();
      const wanted = JSON.stringify([...new Set(hashes)]);
      for (const row of select.all(provider, model, wanted))
        found.set(row.content_hash, blobToFloat32(row.embedding));
      if (found.size > 0) touch.run(at, provider, model, JSON.stringify([...found.keys()]));
      return found;
    },
    put(provider, model, entries) {
      if (options.maxEntries === 0 || entries.length === 0) return;
      const at = options.now().toISOString();
      db.transaction(() => {
        for (const [hash, vector] of entries)
          upsert.run(provider, model, hash, float32ToBlob(vector), at, at);
        count = countAll.get()?.n ?? 0;
        if (count > options.maxEntries) {
          evict.run(count - options.maxEntries);
          count = options.maxEntries;
        }
      }).immediate();
    },
    size: () => count,
  };
}
