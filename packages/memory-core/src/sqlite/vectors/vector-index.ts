import type { Database } from "better-sqlite3";
import { blobToFloat32, cosineSimilarity, float32ToBlob } from "../../recall/vector-math.js";
import { type EntryFilter, filterSql } from "../reads/filter-sql.js";
import type { MetaStore } from "../schema/meta-store.js";
import type { StatementCache } from "../schema/statement-cache.js";
import { BinaryCodes, blobToCode, codeToBlob, encodeBinary } from "./binary-codes.js";

export interface VectorHit {
  rid: number;
  /** Cosine similarity, 1 = same direction. */
  similarity: number;
}

/** Nearest-neighbour search over the current fingerprint's vectors. */
export interface VectorIndex {
  /** "sqlite-vec" when the extension computes the exact distances, "js" otherwise. */
  readonly kind: "sqlite-vec" | "js";
  /** Makes the index ready for vectors of this dimension (builds the codes when missing). */
  ensure(dimensions: number): void;
  upsert(rid: number, namespace: string, embedding: Buffer): void;
  remove(rid: number): void;
  /** Removes the index rows of the entries matching a WHERE clause on memories aliased `m`. */
  removeWhere(where: string, params: unknown[]): void;
  /** Forgets every vector (a change of fingerprint). */
  clear(): void;
  /** Drops the in-memory state so the next search reloads it (after a failed transaction). */
  invalidate(): void;
  search(query: Float32Array, k: number, filter: EntryFilter): VectorHit[];
}

const CREATE_CODES = `CREATE TABLE IF NOT EXISTS memory_codes (
  rid INTEGER PRIMARY KEY, namespace TEXT NOT NULL, code BLOB NOT NULL, seq INTEGER NOT NULL DEFAULT 0)`;

/** Every written code takes the next `seq`, so another connection reads only what changed. */
const NEXT_SEQ = "(SELECT coalesce(max(seq), 0) + 1 FROM memory_codes)";

/** Share of the mirror that may be codes of deleted entries before it is read again whole. */
const MAX_STALE_SHARE = 0.1;

/** Candidates the binary pre-filter passes to the exact re-rank: per requested hit, and at least. */
const CANDIDATES_PER_HIT = 25;
const MIN_CANDIDATES = 1000;

/**
 * Vector search in two stages: binary codes (kept in `memory_codes` and mirrored in memory) pick
 * candidates by hamming distance, then the exact cosine over the stored float32 BLOBs re-ranks
 * them — in SQL with sqlite-vec's `vec_distance_cosine` when the extension loaded, in JavaScript
 * otherwise. A filter that leaves too few candidates falls back to an exact scan of the filtered
 * rows, so results are never silently short.
 */
export function createVectorIndex(
  db: Database,
  statements: StatementCache,
  meta: MetaStore,
  vecAvailable: boolean,
): VectorIndex {
  db.exec(CREATE_CODES);
  addSeqColumn(db);
  if (vecAvailable) db.exec("DROP TABLE IF EXISTS memories_vec"); // the vec0 index of early builds
  let dimensions = Number(meta.get("codes_dimensions") ?? 0);
  let codes: BinaryCodes | null = null;
  let seenVersion = -1;
  const dataVersion = () => statements.get("PRAGMA data_version").pluck().get() as number;

  let seenSeq = 0;

  /**
   * The in-memory mirror of memory_codes. This connection's own writes keep it current. When another
   * connection (a recall worker's writer, a second process) has committed, only the codes written
   * since (by `seq`) are read; codes of entries deleted elsewhere stay behind, which only costs a
   * pre-filter slot (the re-rank reads the entries), until they are a tenth of the mirror and it is
   * read again whole. Reading 10k codes whole after every write cost a reader ~60 ms per recall.
   */
  function loaded(): BinaryCodes | null {
    if (dimensions === 0) return null;
    const version = dataVersion();
    if (codes !== null && version === seenVersion) return codes;
    if (codes !== null) {
      readCodes(codes, seenSeq);
      const stored = statements.get("SELECT count(*) FROM memory_codes").pluck().get() as number;
      if (codes.count - stored > codes.count * MAX_STALE_SHARE) codes = null;
    }
    if (codes === null) {
      codes = new BinaryCodes(dimensions);
      seenSeq = 0;
      readCodes(codes, -1);
    }
    seenVersion = version;
    return codes;
  }

  /** Adds to `into` the codes written after `afterSeq`, and remembers the last seq seen. */
  function readCodes(into: BinaryCodes, afterSeq: number): void {
    const words = Math.ceil(dimensions / 32);
    for (const [rid, namespace, code, seq] of statements
      .get("SELECT rid, namespace, code, seq FROM memory_codes WHERE seq > ?")
      .raw()
      .iterate(afterSeq) as Iterable<[number, string, Buffer, number]>) {
      into.set(rid, namespace, blobToCode(code, words));
      if (seq > seenSeq) seenSeq = seq;
    }
  }

  function rebuildCodes(): void {
    db.transaction(() => {
      db.exec("DELETE FROM memory_codes");
      const insert = db.prepare(
        `INSERT INTO memory_codes(rid, namespace, code, seq) VALUES (?, ?, ?, ${NEXT_SEQ})`,
      );
      // Paged rather than iterated: better-sqlite3 refuses writes while an iterator is open.
      const page = db.prepare(
        "SELECT rid, namespace, embedding FROM memories WHERE embedding IS NOT NULL AND rid > ? ORDER BY rid LIMIT 1000",
      );
      for (let after = 0; ; ) {
        const rows = page.all(after) as Array<{ rid: number; namespace: string; embedding: Buffer }>;
        if (rows.length === 0) break;
        for (const row of rows)
          insert.run(row.rid, row.namespace, codeToBlob(encodeBinary(row.embedding, dimensions)));
        after = (rows[rows.length - 1] as { rid: number }).rid;
      }
      meta.set("codes_dimensions", String(dimensions));
    }).immediate();
    codes = null;
  }

  /**
   * The k nearest by exact cosine among the rows matching `condition` and `filter`: in SQL with
   * sqlite-vec when it loaded, over the BLOBs in JavaScript otherwise.
   */
  function ranked(
    query: Buffer,
    queryVector: Float32Array,
    condition: string,
    conditionParams: unknown[],
    filter: EntryFilter,
    k: number,
  ): VectorHit[] {
    const where = filterSql(filter);
    const rows = `FROM memories m WHERE m.embedding IS NOT NULL AND ${condition}${where.sql}`;
    if (vecAvailable) {
      return toHits(
        statements
          .get(
            `SELECT m.rid AS rid, vec_distance_cosine(m.embedding, ?) AS distance ${rows} ORDER BY distance LIMIT ?`,
          )
          .all(query, ...conditionParams, ...where.params, k) as Array<{ rid: number; distance: number }>,
      );
    }
    const blobs = statements
      .get(`SELECT m.rid AS rid, m.embedding AS embedding ${rows}`)
      .all(...conditionParams, ...where.params) as Array<{ rid: number; embedding: Buffer }>;
    return topByCosine(queryVector, blobs, k);
  }

  return {
    kind: vecAvailable ? "sqlite-vec" : "js",
    ensure(dims) {
      if (dims === dimensions) return;
      dimensions = dims;
      rebuildCodes();
    },
    upsert(rid, namespace, embedding) {
      if (dimensions === 0) return;
      const code = encodeBinary(embedding, dimensions);
      statements
        .get(
          `INSERT INTO memory_codes(rid, namespace, code, seq) VALUES (?, ?, ?, ${NEXT_SEQ})
           ON CONFLICT(rid) DO UPDATE SET namespace = excluded.namespace, code = excluded.code, seq = excluded.seq`,
        )
        .run(rid, namespace, codeToBlob(code));
      codes?.set(rid, namespace, code);
    },
    remove(rid) {
      statements.get("DELETE FROM memory_codes WHERE rid = ?").run(rid);
      codes?.delete(rid);
    },
    removeWhere(where, params) {
      const rids = statements
        .get(`SELECT m.rid FROM memories m WHERE ${where}`)
        .pluck()
        .all(...params) as number[];
      const remove = statements.get("DELETE FROM memory_codes WHERE rid = ?");
      for (const rid of rids) {
        remove.run(rid);
        codes?.delete(rid);
      }
    },
    clear() {
      db.exec("DELETE FROM memory_codes");
      meta.delete("codes_dimensions");
      dimensions = 0;
      codes = null;
    },
    invalidate() {
      codes = null;
    },
    search(queryVector, k, filter) {
      const index = loaded();
      if (index === null || k <= 0) return [];
      const query = float32ToBlob(queryVector);
      const wanted = Math.max(k * CANDIDATES_PER_HIT, MIN_CANDIDATES);
      const namespace =
        filter.namespace !== undefined && filter.namespace !== "*" ? filter.namespace : undefined;
      const candidates = index.nearest(index.encode(queryVector), wanted, namespace);
      const hits = ranked(
        query,
        queryVector,
        "m.rid IN (SELECT value FROM json_each(?))",
        [JSON.stringify(candidates)],
        { ...filter, namespace: undefined },
        k,
      );
      // Fewer than k survived although the pre-filter had more to give: the filter (session,
      // categories, dates, superseded) removed them, and only an exact scan of the filtered rows is right.
      if (hits.length < k && candidates.length >= wanted)
        return ranked(query, queryVector, "1 = 1", [], filter, k);
      return hits;
    },
  };
}

/** Databases from before `seq` get the column (their codes count as written at 0) and its index. */
function addSeqColumn(db: Database): void {
  const columns = db.prepare("PRAGMA table_info(memory_codes)").all() as Array<{ name: string }>;
  if (!columns.some((c) => c.name === "seq")) {
    db.exec("ALTER TABLE memory_codes ADD COLUMN seq INTEGER NOT NULL DEFAULT 0");
  }
  db.exec("CREATE INDEX IF NOT EXISTS memory_codes_seq ON memory_codes(seq)");
}

/** Similarity ≤ 0 means unrelated: such neighbours are not hits. */
function toHits(rows: ReadonlyArray<{ rid: number; distance: number }>): VectorHit[] {
  return rows.filter((r) => r.distance < 1).map((r) => ({ rid: r.rid, similarity: 1 - r.distance }));
}

function topByCosine(
  query: Float32Array,
  rows: ReadonlyArray<{ rid: number; embedding: Buffer }>,
  k: number,
): VectorHit[] {
  const hits: VectorHit[] = [];
  for (const row of rows) {
    const vector = blobToFloat32(row.embedding);
    if (vector.length !== query.length) continue;
    const similarity = cosineSimilarity(query, vector);
    if (similarity > 0) hits.push({ rid: row.rid, similarity });
  }
  hits.sort((a, b) => b.similarity - a.similarity || a.rid - b.rid);
  return hits.slice(0, k);
}
