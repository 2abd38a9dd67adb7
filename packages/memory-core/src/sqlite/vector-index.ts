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

function vecTableSql(db: Database): string | undefined {
  return (
    db.prepare("SELECT sql FROM sqlite_master WHERE name = 'memories_vec'").get() as
      | { sql: string }
      | undefined
  )?.sql;
}

/**
 * sqlite-vec index with a binary-quantized pre-filter: the vec0 table holds one bit per dimension
 * (32× smaller than float32, hamming distance), its KNN picks `CANDIDATES_PER_HIT × k` candidates,
 * and the exact cosine over the stored float32 BLOBs re-ranks them. Dimensions that are not a
 * multiple of 8 cannot be bit-packed and keep a float index.
 */
function createVecIndex(db: Database, statements: StatementCache, meta: MetaStore): VectorIndex {
  // "stale": a table exists but its shape or contents are unverified until ensure() knows the dims.
  let state: "none" | "stale" | "ready" = vecTableSql(db) === undefined ? "none" : "stale";
  let quantize = "?";

  function rebuild(): void {
    db.transaction(() => {
      db.exec("DELETE FROM memories_vec");
      const insert = db.prepare(
        `INSERT INTO memories_vec(rid, namespace, embedding) VALUES (?, ?, ${quantize})`,
      );
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
      const binary = dimensions % 8 === 0;
      quantize = binary ? "vec_quantize_binary(?)" : "?";
      const wanted = createVectorTableSql(dimensions, binary);
      if (state === "ready") return;
      const existing = vecTableSql(db);
      if (
        existing !== undefined &&
        normalize(existing) === normalize(wanted) &&
        meta.get("vec_dirty") !== "1"
      ) {
        state = "ready";
        return;
      }
      if (existing !== undefined) db.exec("DROP TABLE memories_vec");
      db.exec(wanted);
      state = "ready";
      rebuild();
    },
    upsert(rid, namespace, embedding) {
      if (state !== "ready") return;
      statements.get("DELETE FROM memories_vec WHERE rid = ?").run(BigInt(rid));
      statements
        .get(`INSERT INTO memories_vec(rid, namespace, embedding) VALUES (?, ?, ${quantize})`)
        .run(BigInt(rid), namespace, embedding);
    },
    remove(rid) {
      if (state !== "none") statements.get("DELETE FROM memories_vec WHERE rid = ?").run(BigInt(rid));
    },
    removeWhere(where, params) {
      if (state === "none") return;
      statements
        .get(`DELETE FROM memories_vec WHERE rid IN (SELECT m.rid FROM memories m WHERE ${where})`)
        .run(...params);
    },
    clear() {
      if (state !== "none") db.exec("DROP TABLE memories_vec");
      state = "none";
    },
    search(queryVector, k, filter) {
      if (state !== "ready" || k <= 0) return [];
      const query = float32ToBlob(queryVector);
      if (k > VEC0_MAX_K) return exactScan(query, k, filter);
      // Filters apply after the KNN, so a selective one needs a deeper candidate list.
      const perHit = isSelective(filter) ? CANDIDATES_PER_HIT * 4 : CANDIDATES_PER_HIT;
      const fetch = Math.min(VEC0_MAX_K, Math.max(k * perHit, MIN_CANDIDATES));
      const namespaced = filter.namespace !== undefined && filter.namespace !== "*";
      const candidates = statements
        .get(
          `SELECT rid FROM memories_vec WHERE embedding MATCH ${quantize} AND k = ?${namespaced ? " AND namespace = ?" : ""}`,
        )
        .pluck()
        .all(query, fetch, ...(namespaced ? [filter.namespace] : [])) as number[];
      const where = filterSql({ ...filter, namespace: undefined });
      const rows = statements
        .get(
          `SELECT m.rid AS rid, vec_distance_cosine(m.embedding, ?) AS distance FROM memories m
           WHERE m.rid IN (SELECT value FROM json_each(?)) AND m.embedding IS NOT NULL${where.sql}
           ORDER BY distance LIMIT ?`,
        )
        .all(query, JSON.stringify(candidates), ...where.params, k) as Array<{
        rid: number;
        distance: number;
      }>;
      // The KNN saw every vector when it returned fewer than asked; otherwise a short answer means
      // the filter removed too many candidates, and only an exact scan of the filtered rows is right.
      if (rows.length < k && candidates.length >= fetch) return exactScan(query, k, filter);
      return toHits(rows);
    },
  };
}

/** Candidates the quantized KNN passes to the exact re-rank, per requested hit. */
const CANDIDATES_PER_HIT = 10;
const MIN_CANDIDATES = 200;

function normalize(sql: string): string {
  return sql.replace(/\s+/g, " ").replace("IF NOT EXISTS ", "").trim();
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
