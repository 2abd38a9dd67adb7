import type { VectorHit } from "@claw/memory-core";
import { cosineSimilarity } from "@claw/memory-core";
import type { Queryable } from "../db/pool.js";
import type { SqlNames } from "../db/sql-names.js";
import { pgvectorParam } from "../db/vector-params.js";
import { vectorText } from "../db/vector-text.js";
import type { VectorSearch } from "../embedding/vector-index.js";
import { type EntryFilter, filterSql, SqlParams } from "../store/filter-sql.js";

/**
 * The `k` stored vectors nearest to `query` (cosine) among entries passing `filter`. Similarity ≤ 0
 * means unrelated: such neighbours are not hits (as in core).
 */
export async function searchVectors(
  db: Queryable,
  names: SqlNames,
  search: VectorSearch,
  query: Float32Array,
  k: number,
  filter: EntryFilter,
): Promise<VectorHit[]> {
  if (query.length !== search.dimensions || k <= 0) return [];
  if (search.kind === "js") return searchInJs(db, names, search.dimensions, query, k, filter);
  // Without an index (too many dimensions for one) the first query is already exact.
  const viaIndex = await nearest(db, names, search, query, k, filter, search.index === null);
  // HNSW visits a bounded candidate list (with pgvector ≥ 0.8 it keeps going, up to a cap): when
  // the filter rejected most of it (fewer than k rows came back), only an exact scan of the
  // filtered rows is right. k rows, related or not, are a complete answer: no second query.
  const rows =
    viaIndex.length >= k || search.index === null
      ? viaIndex
      : await nearest(db, names, search, query, k, filter, true);
  return related(rows);
}

/** Cosine distance ≥ 1 (similarity ≤ 0) means unrelated: such neighbours are not hits (as in core). */
function related(rows: ReadonlyArray<{ rid: number; distance: number }>): VectorHit[] {
  return rows.filter((r) => r.distance < 1).map((r) => ({ rid: r.rid, similarity: 1 - r.distance }));
}

async function nearest(
  db: Queryable,
  names: SqlNames,
  search: Extract<VectorSearch, { kind: "pgvector" }>,
  query: Float32Array,
  k: number,
  filter: EntryFilter,
  exact: boolean,
): Promise<Array<{ rid: number; distance: number }>> {
  const params = new SqlParams();
  // The query vector as a parameter of its type: parsed once. (As a binary real[] cast to it, a
  // generic plan casts it again for every row an exact scan reads: 72–89 ms against 53–58 ms over
  // 100k × 64.) `vector` goes in binary; `halfvec` (over 2,000 dims) as text, which the server
  // rounds to 16 bits as it rounds the stored vectors.
  const vector = `${params.add(search.half ? vectorText(query, "[]") : pgvectorParam(query))}::${search.type}`;
  const distance = `(m.embedding::${search.type} ${search.distance} ${vector})`;
  const where = filterSql(filter, params);
  // "+ 0" hides the expression from the planner, which then cannot pick the index: an exact scan.
  const { rows } = await db.query<{ rid: number; distance: number }>(
    `SELECT m.rid, ${distance} AS distance FROM ${names.memories} m
     WHERE array_length(m.embedding, 1) = ${search.dimensions}${where}
     ORDER BY ${exact ? `${distance} + 0` : distance} LIMIT ${params.add(k)}`,
    params.values,
  );
  return rows;
}

async function searchInJs(
  db: Queryable,
  names: SqlNames,
  dimensions: number,
  query: Float32Array,
  k: number,
  filter: EntryFilter,
): Promise<VectorHit[]> {
  const params = new SqlParams();
  const where = filterSql(filter, params);
  const { rows } = await db.query<{ rid: number; embedding: number[] }>(
    `SELECT m.rid, m.embedding FROM ${names.memories} m
     WHERE array_length(m.embedding, 1) = ${dimensions}${where}`,
    params.values,
  );
  const hits: VectorHit[] = [];
  for (const row of rows) {
    const similarity = cosineSimilarity(query, Float32Array.from(row.embedding));
    if (similarity > 0) hits.push({ rid: row.rid, similarity });
  }
  hits.sort((a, b) => b.similarity - a.similarity || a.rid - b.rid);
  return hits.slice(0, k);
}
