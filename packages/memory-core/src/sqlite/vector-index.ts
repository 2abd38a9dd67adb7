import type { Database } from "better-sqlite3";
import { blobToFloat32, cosineSimilarity, float32ToBlob } from "../recall/vector-math.js";
import { type EntryFilter, filterSql, isSelective } from "./entry-filter.js";
import type { MetaStore } from "./meta-store.js";
import { createVectorTableSql } from "./schema.js";
import type { StatementCache } from "./statement-cache.js";

export interface VectorHit {
  rid: number;
  /** Cosine similarity, 1 = same direction. */
  similarity: number;
}

/** Nearest-neighbour search over the current fingerprint's vectors. */
export interface VectorIndex {
  readonly kind: "sqlite-vec" | "js";
  /** Makes the index ready for vectors of this dimension. */
  ensure(dimensions: number): void;
  upsert(rid: number, namespace: string, embedding: Buffer): void;
  remove(rid: number): void;
  /** Removes the index rows of the entries matching a WHERE clause on memories aliased `m`. */
  removeWhere(where: string, params: unknown[]): void;
  /** Forgets every vector (a change of fingerprint). */
  clear(): void;
  search(query: Float32Array, k: number, filter: EntryFilter): VectorHit[];
}

/** vec0 caps k per query; beyond it the exact filtered scan answers. */
const VEC0_MAX_K = 4096;

export function createVectorIndex(
  db: Database,
  statements: StatementCache,
  meta: MetaStore,
  vecAvailable: boolean,
): VectorIndex {
  return vecAvailable ? createVecIndex(db, statements, meta) : createJsIndex(statements, meta);
}

function vecTableExists(db: Database): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'memories_vec'").get() !== undefined;
}

function createVecIndex(db: Database, statements: StatementCache, meta: MetaStore): VectorIndex {
  let ready = vecTableExists(db);
  // A connection without sqlite-vec may have written vectors the vec0 table never saw.
  if (ready && meta.get("vec_dirty") === "1") rebuild();

  function rebuild(): void {
    db.transaction(() => {
      db.exec("DELETE FROM memories_vec");
      const insert = db.prepare("INSERT INTO memories_vec(rid, namespace, embedding) VALUES (?, ?, ?)");
      // Paged rather than iterated: better-sqlite3 refuses writes while an iterator is open.
      const page = db.prepare(
        "SELECT rid, namespace, embedding FROM memories WHERE embedding IS NOT NULL AND rid > ? ORDER BY rid LIMIT 1000",
      );
      for (let after = 0; ; ) {
        const rows = page.all(after) as Array<{ rid: number; namespace: string; embedding: Buffer }>;
        if (rows.length === 0) break;
        for (const row of rows) insert.run(BigInt(row.rid), row.namespace, row.embedding);
        after = (rows[rows.length - 1] as { rid: number }).rid;
      }
      meta.delete("vec_dirty");
    })();
  }

  function exactScan(query: Buffer, k: number, filter: EntryFilter): VectorHit[] {
    const where = filterSql(filter);
    const rows = statements
      .get(
        `SELECT m.rid AS rid, vec_distance_cosine(m.embedding, ?) AS distance FROM memories m
         WHERE m.embedding IS NOT NULL${where.sql} ORDER BY distance LIMIT ?`,
      )
      .all(query, ...where.params, k) as Array<{ rid: number; distance: number }>;
    return toHits(rows);
  }

  return {
    kind: "sqlite-vec",
    ensure(dimensions) {
      if (ready) return;
      db.exec(createVectorTableSql(dimensions));
      ready = true;
      rebuild();
    },
    upsert(rid, namespace, embedding) {
      if (!ready) return;
      statements.get("DELETE FROM memories_vec WHERE rid = ?").run(BigInt(rid));
      statements
        .get("INSERT INTO memories_vec(rid, namespace, embedding) VALUES (?, ?, ?)")
        .run(BigInt(rid), namespace, embedding);
    },
    remove(rid) {
      if (ready) statements.get("DELETE FROM memories_vec WHERE rid = ?").run(BigInt(rid));
    },
    removeWhere(where, params) {
      if (!ready) return;
      statements
        .get(`DELETE FROM memories_vec WHERE rid IN (SELECT m.rid FROM memories m WHERE ${where})`)
        .run(...params);
    },
    clear() {
      if (ready) db.exec("DROP TABLE memories_vec");
      ready = false;
    },
    search(queryVector, k, filter) {
      if (!ready || k <= 0) return [];
      const query = float32ToBlob(queryVector);
      const selective = isSelective(filter);
      // Over-fetch so that filtering after the KNN still leaves k; fall back to an exact scan of
      // the filtered rows when it does not (a narrow filter, or k beyond vec0's cap).
      const fetch = Math.min(VEC0_MAX_K, selective ? Math.max(k * 10, 200) : Math.max(k * 2, k + 20));
      if (k > VEC0_MAX_K) return exactScan(query, k, filter);
      const namespaced = filter.namespace !== undefined && filter.namespace !== "*";
      const where = filterSql({ ...filter, namespace: undefined });
      const rows = statements
        .get(
          `WITH knn AS (SELECT rid, distance FROM memories_vec WHERE embedding MATCH ? AND k = ?${
            namespaced ? " AND namespace = ?" : ""
          }) SELECT knn.rid AS rid, knn.distance AS distance FROM knn JOIN memories m ON m.rid = knn.rid
          WHERE 1 = 1${where.sql} ORDER BY knn.distance LIMIT ?`,
        )
        .all(query, fetch, ...(namespaced ? [filter.namespace] : []), ...where.params, k) as Array<{
        rid: number;
        distance: number;
      }>;
      if (rows.length < k) {
        // Fewer than k survived: either the corpus is small (the KNN saw everything) or the filter
        // removed too many. Only the second needs the exact scan.
        const knnSize = (
          statements
            .get(`SELECT count(*) AS n FROM memories_vec${namespaced ? " WHERE namespace = ?" : ""}`)
            .get(...(namespaced ? [filter.namespace] : [])) as { n: number }
        ).n;
        if (knnSize > fetch) return exactScan(query, k, filter);
      }
      return toHits(rows);
    },
  };
}

/** Similarity ≤ 0 means unrelated: such neighbours are not hits. */
function toHits(rows: ReadonlyArray<{ rid: number; distance: number }>): VectorHit[] {
  return rows.filter((r) => r.distance < 1).map((r) => ({ rid: r.rid, similarity: 1 - r.distance }));
}

/** In-process cosine over the stored BLOBs, for when sqlite-vec is missing. */
function createJsIndex(statements: StatementCache, meta: MetaStore): VectorIndex {
  // The vec0 table (if any) cannot be kept in step without the extension.
  meta.set("vec_dirty", "1");
  return {
    kind: "js",
    ensure() {},
    upsert() {},
    remove() {},
    removeWhere() {},
    clear() {},
    search(query, k, filter) {
      if (k <= 0) return [];
      const where = filterSql(filter);
      const hits: VectorHit[] = [];
      for (const row of statements
        .get(
          `SELECT m.rid AS rid, m.embedding AS embedding FROM memories m WHERE m.embedding IS NOT NULL${where.sql}`,
        )
        .iterate(...where.params) as Iterable<{ rid: number; embedding: Buffer }>) {
        const vector = blobToFloat32(row.embedding);
        if (vector.length !== query.length) continue;
        const similarity = cosineSimilarity(query, vector);
        if (similarity > 0) hits.push({ rid: row.rid, similarity });
      }
      hits.sort((a, b) => b.similarity - a.similarity || a.rid - b.rid);
      return hits.slice(0, k);
    },
  };
}
