import type { Queryable } from "../db/pool.js";
import type { SqlNames } from "../db/sql-names.js";

/**
 * How vectors are searched: pgvector when the extension is there, through an HNSW index (cosine)
 * when one fits the dimensions (`index`; null = an exact scan), otherwise in JavaScript over the
 * stored float4 arrays (correct, but a full scan: fine for small stores). `type` is the pgvector
 * type both the index and the queries cast the stored arrays to.
 */
export type VectorSearch =
  | {
      kind: "pgvector";
      dimensions: number;
      type: string;
      /** `type` is `halfvec` (16-bit floats) rather than `vector`. */
      half: boolean;
      distance: string;
      index: { name: string; opclass: string } | null;
    }
  | { kind: "js"; dimensions: number };

/** pgvector's HNSW limits: `vector` up to 2,000 dimensions; `halfvec` (pgvector ≥ 0.7) up to 4,000. */
export const HNSW_MAX_VECTOR_DIMENSIONS = 2_000;
export const HNSW_MAX_HALFVEC_DIMENSIONS = 4_000;
const INDEX_PREFIX = "claw_memories_hnsw_";
/** The most dimensions pgvector's `vector` type holds at all. */
const VECTOR_MAX_DIMENSIONS = 16_000;

/**
 * Makes pgvector available if it can (CREATE EXTENSION needs the right privileges) and says where
 * its type and operator live. Must run under the schema lock: CREATE EXTENSION races otherwise.
 * Returns null, with the reason, when vectors must be compared in JavaScript.
 */
export async function loadPgvector(
  client: Queryable,
): Promise<
  { schema: string; version: string; reason?: undefined } | { schema: null; version: null; reason: string }
> {
  let reason = "";
  try {
    await client.query("CREATE EXTENSION IF NOT EXISTS vector");
  } catch (error) {
    reason = (error as Error).message;
  }
  const { rows } = await client.query<{ schema: string; version: string }>(
    `SELECT n.nspname AS schema, e.extversion AS version
     FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
     WHERE e.extname = 'vector'`,
  );
  if (rows[0] !== undefined) return { schema: rows[0].schema, version: rows[0].version };
  return {
    schema: null,
    version: null,
    reason: `pgvector is not installed (${reason}): vectors are compared in JavaScript, which scans every vector; run CREATE EXTENSION vector as a superuser`,
  };
}

/** True when pgvector `version` ("0.8.0") is at least `major.minor`. */
export function pgvectorAtLeast(version: string, major: number, minor: number): boolean {
  const [a = 0, b = 0] = version.split(".").map((part) => Number.parseInt(part, 10) || 0);
  return a > major || (a === major && b >= minor);
}

/**
 * The search for `dimensions`-long vectors, with the pgvector names qualified by its schema:
 * `vector` with an HNSW index up to 2,000 dimensions, `halfvec` (16-bit floats, pgvector ≥ 0.7)
 * with one up to 4,000, an exact scan of `vector` beyond (the reason in `unindexed`), JavaScript
 * past pgvector's 16,000 or without pgvector.
 */
export function vectorSearchFor(
  pgvector: { schema: string; version: string } | { schema: null },
  dimensions: number,
): { search: VectorSearch; unindexed?: string } {
  if (pgvector.schema === null || dimensions > VECTOR_MAX_DIMENSIONS) {
    return { search: { kind: "js", dimensions } };
  }
  const schema = `"${pgvector.schema.replace(/"/g, '""')}"`;
  const distance = `OPERATOR(${schema}.<=>)`;
  if (dimensions <= HNSW_MAX_VECTOR_DIMENSIONS) {
    const index = { name: `${INDEX_PREFIX}${dimensions}`, opclass: `${schema}.vector_cosine_ops` };
    return {
      search: {
        kind: "pgvector",
        dimensions,
        type: `${schema}.vector(${dimensions})`,
        half: false,
        distance,
        index,
      },
    };
  }
  const halfvec = pgvectorAtLeast(pgvector.version, 0, 7);
  if (halfvec && dimensions <= HNSW_MAX_HALFVEC_DIMENSIONS) {
    const index = { name: `${INDEX_PREFIX}half_${dimensions}`, opclass: `${schema}.halfvec_cosine_ops` };
    return {
      search: {
        kind: "pgvector",
        dimensions,
        type: `${schema}.halfvec(${dimensions})`,
        half: true,
        distance,
        index,
      },
    };
  }
  const limit = halfvec
    ? `pgvector indexes at most ${HNSW_MAX_HALFVEC_DIMENSIONS} dimensions (as halfvec)`
    : `pgvector ${pgvector.version} indexes at most ${HNSW_MAX_VECTOR_DIMENSIONS} dimensions (0.7 and later: ${HNSW_MAX_HALFVEC_DIMENSIONS}, as halfvec)`;
  return {
    search: {
      kind: "pgvector",
      dimensions,
      type: `${schema}.vector(${dimensions})`,
      half: false,
      distance,
      index: null,
    },
    unindexed: `no HNSW index for ${dimensions}-dimensional vectors: ${limit}, so vector recall scans every vector exactly`,
  };
}

/**
 * Memory for an HNSW build, in MB. pgvector builds the graph in memory while it fits in
 * `maintenance_work_mem`, and on disk, far slower, after: 1M × 64 dims took 8 min with 1 GB and
 * had not finished after 38 min with 256 MB. A build asks for what its graph needs (graphMemoryMb),
 * at least BUILD_MEMORY_MIN_MB, at most the store's `indexBuildMemoryMb` (default
 * DEFAULT_BUILD_MEMORY_MAX_MB) unless the role's own setting is higher.
 */
const BUILD_MEMORY_MIN_MB = 256;
export const DEFAULT_BUILD_MEMORY_MAX_MB = 1024;
/** PostgreSQL's largest `maintenance_work_mem` (2 TB less 1 kB), in whole MB. */
export const MAX_BUILD_MEMORY_MB = 2_097_151;
/** The graph's bytes per row besides the vector: the element and its neighbour lists (m = 16), with room. */
const GRAPH_BYTES_PER_ROW = 768;

/** The memory (MB) pgvector's graph of `rows` vectors of `dimensions` takes while it is built. */
export function graphMemoryMb(rows: number, dimensions: number, halfPrecision: boolean): number {
  const perRow = dimensions * (halfPrecision ? 2 : 4) + GRAPH_BYTES_PER_ROW;
  return Math.ceil((Math.max(0, rows) * perRow) / 2 ** 20);
}

/**
 * The `maintenance_work_mem` (MB) an HNSW build of a graph of `neededMb` asks for: that, within
 * BUILD_MEMORY_MIN_MB (or `maxMb` when lower) and `maxMb`, or `currentMb` (the session's setting)
 * when that is more.
 */
export function buildMemoryMb(
  neededMb: number,
  currentMb: number,
  maxMb: number = DEFAULT_BUILD_MEMORY_MAX_MB,
): number {
  return Math.max(currentMb, Math.min(maxMb, Math.max(Math.min(BUILD_MEMORY_MIN_MB, maxMb), neededMb)));
}

/** An HNSW build: the rows it was sized for, the memory their graph needs and what it was given (MB). */
export interface IndexBuild {
  rows: number;
  neededMb: number;
  memoryMb: number;
}

/** What a build whose graph did not fit in its memory tells the operator (status(), one warning); null when it fit. */
export function buildMemoryWarning(build: IndexBuild | null): string | null {
  if (build === null || build.neededMb <= build.memoryMb) return null;
  return `the vector index's last build needed ~${build.neededMb} MB for ${build.rows} rows and had ${build.memoryMb} MB (maintenance_work_mem): pgvector builds what does not fit on disk, several times slower; raise [postgres] index_build_memory_mb (indexBuildMemoryMb to PostgresMemory.open) or the role's maintenance_work_mem`;
}

/**
 * The rows the memories table holds now, as the planner estimates them: its rows per page when last
 * analysed times the pages it has now. The last ANALYZE's count alone lags a bulk import by up to
 * half (ANALYZE runs when the table doubled: db/table-analyzer.ts), and a build sized for half the
 * graph goes on on disk, far slower. Never analysed: counted.
 */
export async function estimateTableRows(client: Queryable, names: SqlNames): Promise<number> {
  const { rows } = await client.query<{ rows: number }>(
    `SELECT CASE WHEN c.reltuples > 0 AND c.relpages > 0
       THEN c.reltuples / c.relpages * (pg_relation_size(c.oid) / current_setting('block_size')::float8)
       ELSE (SELECT count(*) FROM ${names.memories})::float8 END AS rows
     FROM pg_class c WHERE c.oid = '${names.memories}'::regclass`,
  );
  return Math.round(Number(rows[0]?.rows ?? 0));
}

/**
 * An HNSW index (cosine) over the vectors of the current dimensions, through a cast of the float4
 * array and partial on its length, so a vector of another size can never break a write. Indexes
 * for other dimensions or types (an earlier provider, an older pgvector) are dropped, and so is one
 * left invalid by a build that did not finish (a process killed during a concurrent build). Must
 * run under the schema lock. `concurrently`: writes go on while it is built (not in a transaction).
 */
export async function ensureHnswIndex(
  client: Queryable,
  names: SqlNames,
  search: VectorSearch,
  options: { concurrently?: boolean; maxMemoryMb?: number } = {},
): Promise<IndexBuild | null> {
  if (search.kind !== "pgvector") return null;
  const wanted = search.index?.name;
  // `sampled`: ANALYZE keeps statistics of the index's expression (the vectors), which no plan
  // reads; an index built by an earlier release, which this role may change.
  const { rows } = await client.query<{ name: string; valid: boolean; sampled: boolean }>(
    `SELECT c.relname AS name, i.indisvalid AS valid,
       coalesce(a.attstattarget::int, -1) <> 0 AND pg_has_role(c.relowner, 'USAGE') AS sampled
     FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_namespace n ON n.oid = c.relnamespace
       LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = 1
     WHERE n.nspname = $1 AND c.relname LIKE $2`,
    [names.raw, `${INDEX_PREFIX}%`],
  );
  for (const { name, valid } of rows) {
    if (name !== wanted || !valid) await client.query(`DROP INDEX IF EXISTS ${names.schema}."${name}"`);
  }
  if (search.index === null) return null;
  const kept = rows.find((r) => r.name === wanted && r.valid);
  if (kept !== undefined) {
    if (kept.sampled) await unsampled(client, names, search.index.name);
    return null;
  }
  // The rows the graph will hold, and the session's setting.
  const { rows: settings } = await client.query<{ current_mb: number }>(
    "SELECT setting::float8 / 1024 AS current_mb FROM pg_settings WHERE name = 'maintenance_work_mem'",
  );
  const tableRows = await estimateTableRows(client, names);
  const neededMb = graphMemoryMb(tableRows, search.dimensions, search.half);
  const memory = buildMemoryMb(
    neededMb,
    Math.floor(Number(settings[0]?.current_mb ?? 0)),
    options.maxMemoryMb,
  );
  await client.query(`SET maintenance_work_mem = '${memory}MB'`);
  try {
    await client.query(
      `CREATE INDEX ${options.concurrently === true ? "CONCURRENTLY " : ""}IF NOT EXISTS ${search.index.name}
       ON ${names.memories} USING hnsw ((embedding::${search.type}) ${search.index.opclass})
       WHERE array_length(embedding, 1) = ${search.dimensions}`,
    );
  } finally {
    await client.query("RESET maintenance_work_mem");
  }
  await unsampled(client, names, search.index.name);
  return { rows: tableRows, neededMb, memoryMb: memory };
}

/**
 * ANALYZE leaves the index's expression out: it hashed every float of its sample for statistics no
 * plan uses (at 1,536 dims, 1.0 s of an ANALYZE of 20k rows, 0.38 s without; migration 10 does the
 * same for the column).
 */
async function unsampled(client: Queryable, names: SqlNames, index: string): Promise<void> {
  await client.query(`ALTER INDEX ${names.schema}."${index}" ALTER COLUMN 1 SET STATISTICS 0`);
}

/** Drops the HNSW index (a bulk import sets it aside: bulk-index.ts), without blocking readers. */
export async function dropHnswIndex(client: Queryable, names: SqlNames, search: VectorSearch): Promise<void> {
  if (search.kind !== "pgvector" || search.index === null) return;
  await client.query(`DROP INDEX CONCURRENTLY IF EXISTS ${names.schema}."${search.index.name}"`);
}
