import type { Queryable } from "../db/pool.js";
import type { SqlNames } from "../db/sql-names.js";

/**
 * The `claw_embedding_cache` table: vectors by (provider, model, content hash), shared by every
 * server on the database and bounded by least-recent access (`maxEntries`; 0 disables it).
 */
export interface EmbeddingCache {
  get(provider: string, model: string, hashes: readonly string[]): Promise<Map<string, Float32Array>>;
  put(
    provider: string,
    model: string,
    entries: ReadonlyArray<readonly [string, Float32Array]>,
  ): Promise<void>;
}

/**
 * Entries put between two evictions: a hundredth of the bound, at least EVICT_EVERY_MIN. An
 * eviction walks the access index up to the bound (~4.7 ms at 10k), so it runs once per so many
 * entries rather than after every put; the cache overshoots its bound by at most that many.
 */
const EVICT_EVERY_MIN = 64;

export function createEmbeddingCache(
  db: Queryable,
  names: SqlNames,
  options: { maxEntries: number; now: () => Date },
): EmbeddingCache {
  const evictEvery = Math.max(EVICT_EVERY_MIN, Math.floor(options.maxEntries / 100));
  let putSinceEviction = evictEvery;
  return {
    async get(provider, model, hashes) {
      const found = new Map<string, Float32Array>();
      if (options.maxEntries === 0 || hashes.length === 0) return found;
      // One statement reads and touches the hits: accessed_at drives eviction.
      const { rows } = await db.query<{ content_hash: string; embedding: number[] }>(
        `UPDATE ${names.cache} SET accessed_at = $4
         WHERE provider = $1 AND model = $2 AND content_hash = ANY($3::text[])
         RETURNING content_hash, embedding`,
        [provider, model, [...new Set(hashes)], options.now().toISOString()],
      );
      for (const row of rows) found.set(row.content_hash, Float32Array.from(row.embedding));
      return found;
    },
    async put(provider, model, entries) {
      if (options.maxEntries === 0 || entries.length === 0) return;
      const at = options.now().toISOString();
      const unique = [...new Map(entries.map(([hash, vector]) => [hash, vector])).entries()];
      await db.query(
        `INSERT INTO ${names.cache} (provider, model, content_hash, embedding, created_at, accessed_at)
         SELECT $1, $2, v.hash, v.embedding::real[], $5, $5
         FROM unnest($3::text[], $4::text[]) AS v(hash, embedding)
         ON CONFLICT (provider, model, content_hash)
         DO UPDATE SET embedding = EXCLUDED.embedding, accessed_at = EXCLUDED.accessed_at`,
        [
          provider,
          model,
          unique.map(([hash]) => hash),
          unique.map(([, v]) => `{${Array.from(v).join(",")}}`),
          at,
        ],
      );
      // Evict the least recently used beyond the bound (servers evicting at once only overshoot).
      putSinceEviction += unique.length;
      if (putSinceEviction < evictEvery) return;
      putSinceEviction = 0;
      await db.query(
        `DELETE FROM ${names.cache} WHERE ctid IN (
           SELECT ctid FROM ${names.cache} ORDER BY accessed_at DESC OFFSET $1)`,
        [options.maxEntries],
      );
    },
  };
}
