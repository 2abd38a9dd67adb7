import type { Queryable } from "../db/pool.js";
import type { SqlNames } from "../db/sql-names.js";

/**
 * How vectors are searched: pgvector's HNSW index (cosine) when the extension is there, otherwise
 * in JavaScript over the stored float4 arrays (correct, but a full scan: fine for small stores).
 */
export type VectorSearch =
  | { kind: "pgvector"; dimensions: number; type: string; distance: string }
  | { kind: "js"; dimensions: number };

/**
 * Makes pgvector available if it can (CREATE EXTENSION needs the right privileges) and says where
 * its type and operator live. Must run under the schema lock: CREATE EXTENSION races otherwise.
 * Returns null, with the reason, when vectors must be compared in JavaScript.
 */
export async function loadPgvector(
  client: Queryable,
): Promise<{ schema: string; reason?: undefined } | { schema: null; reason: string }> {
  let reason = "";
  try {
    await client.query("CREATE EXTENSION IF NOT EXISTS vector");
  } catch (error) {
    reason = (error as Error).message;
  }
  const { rows } = await client.query<{ schema: string }>(
    `SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
     WHERE e.extname = 'vector'`,
  );
  if (rows[0] !== undefined) return { schema: rows[0].schema };
  return {
    schema: null,
    reason: `pgvector is not installed (${reason}): vectors are compared in JavaScript, which scans every vector; run CREATE EXTENSION vector as a superuser`,
  };
}

/** The search for `dimensions`-long vectors, with the pgvector names qualified by its schema. */
export function vectorSearchFor(pgvectorSchema: string | null, dimensions: number): VectorSearch {
  if (pgvectorSchema === null) return { kind: "js", dimensions };
  const schema = `"${pgvectorSchema.replace(/"/g, '""')}"`;
  return {
    kind: "pgvector",
    dimensions,
    type: `${schema}.vector(${dimensions})`,
    distance: `OPERATOR(${schema}.<=>)`,
  };
}

const INDEX_PREFIX = "claw_memories_hnsw_";

/**
 * An HNSW index (cosine) over the vectors of the current dimensions, through a cast of the float4
 * array and partial on its length, so a vector of another size can never break a write. Indexes
 * for other dimensions (an earlier provider) are dropped. Must run under the schema lock.
 */
export async function ensureHnswIndex(
  client: Queryable,
  names: SqlNames,
  search: VectorSearch,
): Promise<void> {
  if (search.kind !== "pgvector") return;
  const wanted = `${INDEX_PREFIX}${search.dimensions}`;
  const { rows } = await client.query<{ name: string }>(
    "SELECT indexname AS name FROM pg_indexes WHERE schemaname = $1 AND indexname LIKE $2",
    [names.raw, `${INDEX_PREFIX}%`],
  );
  for (const { name } of rows) {
    if (name !== wanted) await client.query(`DROP INDEX IF EXISTS ${names.schema}."${name}"`);
  }
  if (rows.some((r) => r.name === wanted)) return;
  const opclass = search.type.replace(/vector\(\d+\)$/, "vector_cosine_ops");
  await client.query(
    `CREATE INDEX IF NOT EXISTS ${wanted} ON ${names.memories}
     USING hnsw ((embedding::${search.type}) ${opclass})
     WHERE array_length(embedding, 1) = ${search.dimensions}`,
  );
}
