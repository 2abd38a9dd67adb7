import { type Logger, silentLogger } from "@claw/memory-api";
import type { Database } from "better-sqlite3";
import { blobToFloat32, cosineSimilarity, float32ToBlob } from "../../recall/vector-math.js";
import { type EntryFilter, filterSql, type SqlFragment } from "../reads/filter-sql.js";
import type { MetaStore } from "../schema/meta-store.js";
import type { StatementCache } from "../schema/statement-cache.js";
import { narrowestField } from "../search/metadata-fields.js";
import { createCodeWrites } from "./code-writes.js";
import { createBackgroundRebuild } from "./codes-background-rebuild.js";
import { CodesMirror } from "./codes-mirror.js";
import { type BuiltCodes, CODES_TABLE, rebuildCodes } from "./codes-rebuild.js";
import { deleteEncoding, rebuildAt } from "./encoding-state.js";
import { type CodeEncoding, encodedToBlob } from "./vector-encoder.js";

export interface VectorHit {
  rid: number;
  /** Cosine similarity, 1 = same direction. */
  similarity: number;
}

/** Nearest-neighbour search over the current fingerprint's vectors. */
export interface VectorIndex {
  /** "sqlite-vec" when the extension computes the exact distances, "js" otherwise. */
  readonly kind: "sqlite-vec" | "js";
  /** Makes the index ready for vectors of this dimension (builds the codes when missing or of another encoding). */
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
  /**
   * Runs a bulk write: its codes are written together when it ends (code-writes.ts), and a growth
   * rebuild it reaches runs inside it, as part of a call already long, instead of after it
   * (codes-background-rebuild.ts).
   */
  bulk<T>(write: () => T): T;
  /** Resolves once no rebuild of the codes is under way. */
  settled(): Promise<void>;
  /** Stops a rebuild under way (it writes nothing then); call before closing the database. */
  close(): Promise<void>;
}

/**
 * Candidates the pre-filter passes to the exact re-rank: per requested hit, and at least. With
 * 1000, they held 0.98–1.00 of the exact top 10 on clustered, sentence-embedding-like and sparse
 * non-negative vectors at 50k × 384 and 100k × 768, where a search took 0.10 and 0.06 of the time
 * of a full `vec_distance_cosine` scan; at 1M × 384 (sentence-embedding-like) 0.975, in 49 ms
 * (p50; the full scan: 1.2 s).
 */
const CANDIDATES_PER_HIT = 25;
const MIN_CANDIDATES = 1000;
/**
 * Beyond 250k codes the pool grows with the store: the estimate's errors let more near-ties past
 * a fixed cut. At 1M × 384 on tightly clustered vectors, 1000 candidates held 0.79 of the exact
 * top 10, 2500 held 0.95 and 5000 0.99 (p50 88, 92 and 105 ms).
 */
const CODES_PER_CANDIDATE = 250;

/**
 * A metadata filter the metadata index says names at most this share of the codes (or a candidate
 * pool, if more) is searched among those entries only: with a 2 % filter at 100k × 384, the codes
 * of a whole store gave ~20 survivors per 1000 candidates and the pool had to grow (26 ms).
 */
const NARROW_SHARE = 0.05;

/**
 * The largest share of the codes a filtered search passes to the re-rank before it scans every
 * filtered row exactly instead: both read rows, and the exact scan reads them all (~260 ms at
 * 100k × 384).
 */
const MAX_POOL_SHARE = 0.25;

/**
 * The next candidate pool of a filtered search whose `wanted` candidates left `survived` (< k)
 * hits: twice what should hold k at the share that survived, or null when none survived or that
 * pool would pass more than MAX_POOL_SHARE of the codes (then the exact scan reads less).
 */
export function filteredPool(k: number, wanted: number, survived: number, codes: number): number | null {
  if (survived === 0) return null;
  const next = Math.ceil((2 * k * wanted) / survived);
  return next > codes * MAX_POOL_SHARE ? null : next;
}

/** How many candidates the pre-filter passes to the exact re-rank for k hits among `codes`. */
export function candidatesFor(k: number, codes: number, minCandidates = MIN_CANDIDATES): number {
  return Math.max(k * CANDIDATES_PER_HIT, minCandidates, Math.ceil(codes / CODES_PER_CANDIDATE));
}

/**
 * A growth rebuild re-encoding more codes than this, reached by a write that is not a bulk one,
 * runs in the background (codes-background-rebuild.ts): 4,096 codes re-encode in ~0.15 s, the
 * next rebuilds (16,384 and 65,536 codes) would hold the write lock ~0.6 and ~2.6 s.
 */
const INLINE_REBUILD_MAX = 4096;
/** Codes written after a background rebuild failed before it is tried again. */
const RETRY_AFTER_CODES = 1024;

export interface VectorIndexOptions {
  /** Fewest candidates the pre-filter passes to the re-rank (default 1000). */
  minCandidates?: number;
  logger?: Logger;
  /** Codes a growth rebuild may re-encode inside the write that reached it (default 4,096). */
  inlineRebuildMax?: number;
  /** A background rebuild's rows per page and what it awaits between pages (tests). */
  rebuildPageRows?: number;
  rebuildPause?: () => Promise<void>;
}

/**
 * Vector search in two stages: binary codes of each vector's rotated residual from the mean
 * (vector-encoder.ts; kept in `memory_codes` and mirrored in memory) pick candidates by an
 * estimated cosine, then the exact cosine over the stored float32 BLOBs re-ranks them — in SQL
 * with sqlite-vec's `vec_distance_cosine` when the extension loaded, in JavaScript otherwise. A
 * filter that leaves too few candidates falls back to an exact scan of the filtered rows, so
 * results are never silently short.
 *
 * The codes are rebuilt (codes-rebuild.ts) when the stored encoding is missing or of another
 * version or dimension — a store from before this encoding rebuilds once on open — and when the
 * store has grown to GROWTH_FACTOR times the vectors its mean came from (encoding-state.ts): in
 * the write that reached it when that re-encodes few codes or is a bulk write, in the background
 * otherwise (codes-background-rebuild.ts).
 */
export function createVectorIndex(
  db: Database,
  statements: StatementCache,
  meta: MetaStore,
  vecAvailable: boolean,
  options: VectorIndexOptions = {},
): VectorIndex {
  db.exec(CODES_TABLE);
  addSeqColumn(db);
  if (vecAvailable) db.exec("DROP TABLE IF EXISTS memories_vec"); // the vec0 index of early builds
  const minCandidates = options.minCandidates ?? MIN_CANDIDATES;
  const mirror = new CodesMirror(db, statements, meta);
  const codeWrites = createCodeWrites(statements);
  const inlineRebuildMax = options.inlineRebuildMax ?? INLINE_REBUILD_MAX;
  const background = createBackgroundRebuild({
    db,
    meta,
    logger: options.logger ?? silentLogger,
    // Null: another connection rebuilt first; its build is read again on next use.
    adopt: (built) => (built === null ? mirror.reset() : mirror.adopt(built)),
    pageRows: options.rebuildPageRows,
    pause: options.rebuildPause,
  });
  /** Bulk writes under way (bulk()). */
  let bulkDepth = 0;
  /** The build whose growth is being watched, and the `seq` at which to count the codes again. */
  let watched: BuiltCodes | null = null;
  let countAtSeq = 0;

  function rebuild(dimensions: number, stillWanted: (stored: CodeEncoding | null) => boolean): void {
    // The rebuild encodes every stored vector again, those of buffered codes included.
    codeWrites.discard();
    mirror.adopt(rebuildCodes(db, meta, dimensions, stillWanted));
  }

  /**
   * Rebuilds around a fresh mean once the codes reach rebuildAt(). Every code takes a higher seq,
   * so the count cannot reach it before `seq` does: counting (a scan of the seq index) waits until
   * then, and after a count until enough more codes could have been written.
   */
  function rebuildIfGrown(built: BuiltCodes, seq: number): void {
    if (watched !== built) {
      watched = built;
      countAtSeq = rebuildAt(built.encoder.encoding);
    }
    if (seq < countAtSeq || background.running) return;
    const due = rebuildAt(built.encoder.encoding);
    // Buffered codes (a bulk write's) are written first, so that the table holds them all.
    codeWrites.flush();
    const count = statements.get("SELECT count(*) FROM memory_codes").pluck().get() as number;
    if (count < due) {
      countAtSeq = seq + (due - count);
      return;
    }
    if (count > inlineRebuildMax && bulkDepth === 0) {
      background.start(built);
      // Done, it brings another build (watched again from scratch); failed (the log says why),
      // it is tried again this many codes later rather than after every write.
      countAtSeq = seq + RETRY_AFTER_CODES;
      return;
    }
    const { build, dimensions } = built.encoder.encoding;
    rebuild(dimensions, (stored) => stored?.build === build);
  }

  /**
   * The k nearest by exact cosine among the rows matching `condition` and `filter`: in SQL with
   * sqlite-vec when it loaded, over the BLOBs in JavaScript otherwise.
   */
  /**
   * The k nearest by exact cosine among the rows `source` names (rids; every row when null) that
   * pass `filter`. The source drives the join: left to itself, the planner walked the namespace's
   * index over the whole store and tested each row against the rid list (2 % metadata filter at
   * 100k: 10.6 ms to read 1,000 candidates against 4.4 without the namespace condition).
   */
  function ranked(
    query: Buffer,
    queryVector: Float32Array,
    source: SqlFragment | null,
    filter: EntryFilter,
    k: number,
  ): VectorHit[] {
    const where = filterSql(filter);
    const from =
      source === null
        ? "memories m"
        : `(${source.sql}) AS source CROSS JOIN memories m ON m.rid = source.rid`;
    const rows = `FROM ${from} WHERE m.embedding IS NOT NULL${where.sql}`;
    const params = [...(source?.params ?? []), ...where.params];
    if (vecAvailable) {
      return toHits(
        statements
          .get(
            `SELECT m.rid AS rid, vec_distance_cosine(m.embedding, ?) AS distance ${rows} ORDER BY distance LIMIT ?`,
          )
          .all(query, ...params, k) as Array<{ rid: number; distance: number }>,
      );
    }
    const blobs = statements
      .get(`SELECT m.rid AS rid, m.embedding AS embedding ${rows}`)
      .all(...params) as Array<{ rid: number; embedding: Buffer }>;
    return topByCosine(queryVector, blobs, k);
  }

  return {
    kind: vecAvailable ? "sqlite-vec" : "js",
    ensure(dimensions) {
      if (mirror.encoding()?.encoder.encoding.dimensions === dimensions) return;
      rebuild(dimensions, (stored) => stored?.dimensions !== dimensions);
    },
    upsert(rid, namespace, embedding) {
      const built = mirror.encoding();
      if (built === null) return;
      const encoded = built.encoder.encode(embedding);
      const seq = codeWrites.write(rid, namespace, encodedToBlob(encoded));
      mirror.set(rid, namespace, encoded);
      rebuildIfGrown(built, seq);
    },
    remove(rid) {
      codeWrites.remove(rid);
      mirror.delete(rid);
    },
    removeWhere(where, params) {
      const rids = statements
        .get(`SELECT m.rid FROM memories m WHERE ${where}`)
        .pluck()
        .all(...params) as number[];
      for (const rid of rids) {
        codeWrites.remove(rid);
        mirror.delete(rid);
      }
    },
    clear() {
      codeWrites.discard();
      db.exec("DELETE FROM memory_codes");
      deleteEncoding(meta);
      mirror.reset();
    },
    invalidate() {
      mirror.reset();
    },
    bulk(write) {
      bulkDepth++;
      try {
        return codeWrites.buffered(write);
      } finally {
        bulkDepth--;
      }
    },
    settled: () => background.settled(),
    close: () => background.close(),
    search(queryVector, k, filter) {
      const current = k > 0 ? mirror.current() : null;
      if (current === null) return [];
      const query = float32ToBlob(queryVector);
      const namespace =
        filter.namespace !== undefined && filter.namespace !== "*" ? filter.namespace : undefined;
      let wanted = candidatesFor(k, current.codes.count, minCandidates);
      // A pool holding every vector of the namespace would re-rank them all anyway: the exact scan
      // does it without the codes' pass and the candidates' join (1k × 384: ~1.1 ms against ~1.7).
      if (wanted >= current.codes.countIn(namespace)) return ranked(query, queryVector, null, filter, k);
      // A metadata filter the metadata index says names few entries: no more than a candidate
      // pool, they are ranked exactly; more, the codes of just those are scanned.
      const narrow = narrowestField(
        statements,
        filter.where,
        Math.max(wanted, Math.floor(current.codes.count * NARROW_SHARE)),
      );
      if (narrow?.count === 0) return [];
      if (narrow !== null && narrow.count <= wanted) return ranked(query, queryVector, narrow, filter, k);
      const among =
        narrow === null
          ? null
          : (statements
              .get(narrow.sql)
              .pluck()
              .all(...narrow.params) as number[]);
      const encoded = current.encoder.query(queryVector);
      for (;;) {
        const candidates =
          among === null
            ? current.codes.nearest(encoded, wanted, namespace)
            : current.codes.nearestAmong(encoded, wanted, among);
        const hits = ranked(
          query,
          queryVector,
          { sql: "SELECT value AS rid FROM json_each(?)", params: [JSON.stringify(candidates)] },
          // The codes' scan kept to the namespace; the rids of a metadata filter did not.
          among === null ? { ...filter, namespace: undefined } : filter,
          k,
        );
        // All k, or every candidate the codes had: the answer.
        if (hits.length >= k || candidates.length < wanted) return hits;
        // Fewer than k survived although the pre-filter had more to give: the filter (session,
        // categories, dates, superseded, metadata) removed them. A pool sized by the share that
        // survived (twice what should hold k) is tried when it reads fewer rows than the exact scan
        // of every filtered row would; none survived, or too large a pool: that exact scan.
        const next = filteredPool(k, wanted, hits.length, current.codes.count);
        if (next === null) return ranked(query, queryVector, null, filter, k);
        wanted = next;
      }
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
