import type { ScoredRow } from "@claw/memory-core";
import {
  byCoverage,
  extractLikeKeywords,
  ftsTermsOf,
  lendToNeighbours,
  likePattern,
} from "@claw/memory-core";
import type { Queryable } from "../db/pool.js";
import type { SqlNames } from "../db/sql-names.js";
import { entryColumns, type PgEntryRow } from "../store/entry-row.js";
import { type EntryFilter, filterSql, SqlParams } from "../store/filter-sql.js";
import { FTS_RANK_WEIGHTS } from "../store/fts-vector.js";
import { buildTsQuery } from "./tsquery.js";

export interface KeywordContext {
  db: Queryable;
  names: SqlNames;
  textSearchConfig: string;
  filter: EntryFilter;
  withEmbedding: boolean;
}

/**
 * ts_rank_cd (every position weighted 1, divided by 1 + log(length)) times this lands on the
 * magnitudes of FTS5's BM25 for short entries, which the pipeline's strength (score / (1 + score))
 * and its early-return threshold were tuned on.
 */
const RANK_SCALE = 4;

/**
 * Ranked full-text search: the query's terms OR-ed, ranked by ts_rank_cd, scaled by the share of
 * query terms each entry covers (core's byCoverage). When exact terms find fewer than `limit`
 * entries, prefix terms widen the net ("deploy" → "deployment"), as core does.
 */
export async function keywordSearch(
  ctx: KeywordContext,
  query: string,
  limit: number,
): Promise<ScoredRow<PgEntryRow>[]> {
  const exact = buildTsQuery(query);
  if (exact === null) return [];
  const terms = ftsTermsOf(query);
  const hits = byCoverage(await matchFts(ctx, exact, limit), terms);
  if (hits.length >= limit) return hits;
  const prefixed = buildTsQuery(query, { prefix: true });
  if (prefixed === null || prefixed === exact) return hits;
  const byRid = new Map(hits.map((h) => [h.row.rid, h]));
  for (const hit of byCoverage(await matchFts(ctx, prefixed, limit), terms)) {
    const known = byRid.get(hit.row.rid);
    if (known === undefined || known.score < hit.score) byRid.set(hit.row.rid, hit);
  }
  return [...byRid.values()].sort((a, b) => b.score - a.score || a.row.rid - b.row.rid).slice(0, limit);
}

async function matchFts(
  ctx: KeywordContext,
  tsquery: string,
  limit: number,
): Promise<ScoredRow<PgEntryRow>[]> {
  const params = new SqlParams();
  const text = params.add(tsquery);
  const config = params.add(ctx.textSearchConfig);
  const where = filterSql(ctx.filter, params);
  const { rows } = await ctx.db.query<PgEntryRow & { rank: number }>(
    `SELECT ${entryColumns(ctx.withEmbedding)}, ts_rank_cd('${FTS_RANK_WEIGHTS}', m.fts, q.query, 1) AS rank
     FROM ${ctx.names.memories} m,
       (SELECT to_tsquery('simple', ${text}) || to_tsquery(${config}::regconfig, ${text}) AS query) q
     WHERE m.fts @@ q.query${where}
     ORDER BY rank DESC, m.rid LIMIT ${params.add(limit)}`,
    params.values,
  );
  return rows.map(({ rank, ...row }) => ({ row, score: rank * RANK_SCALE }));
}

/**
 * Adds to `hits` the entries written just before and after each hit in its session, passing the
 * same filter, at `weight` × the hit's score (core's lendToNeighbours). One query for all hits.
 */
export async function withSessionNeighbours(
  ctx: KeywordContext,
  hits: readonly ScoredRow<PgEntryRow>[],
  weight: number,
): Promise<ScoredRow<PgEntryRow>[]> {
  const inSessions = hits.filter((h) => h.row.session_id !== null).map((h) => h.row.rid);
  if (weight <= 0 || inSessions.length === 0) return [...hits];
  const params = new SqlParams();
  const rids = params.add(inSessions);
  const where = filterSql({ ...ctx.filter, namespace: undefined, sessionId: undefined }, params);
  const columns = entryColumns(ctx.withEmbedding);
  const side = (op: "<" | ">", order: "DESC" | "ASC") =>
    `(SELECT ${columns} FROM ${ctx.names.memories} m
      WHERE m.namespace = h.namespace AND m.session_id = h.session_id
        AND (m.created_at, m.rid) ${op} (h.created_at, h.rid)${where}
      ORDER BY m.created_at ${order}, m.rid ${order} LIMIT 1)`;
  const { rows } = await ctx.db.query<PgEntryRow & { hit_rid: number }>(
    `SELECT h.rid AS hit_rid, n.* FROM ${ctx.names.memories} h
     CROSS JOIN LATERAL (${side("<", "DESC")} UNION ALL ${side(">", "ASC")}) n
     WHERE h.rid = ANY(${rids}::bigint[])`,
    params.values,
  );
  const neighbours = new Map<number, PgEntryRow[]>();
  for (const { hit_rid, ...row } of rows) {
    neighbours.set(hit_rid, [...(neighbours.get(hit_rid) ?? []), row]);
  }
  return lendToNeighbours(hits, (hit) => neighbours.get(hit.row.rid) ?? [], weight);
}

/**
 * The last resort when ranked search found nothing: substring match of up to 8 keywords over
 * content and key (`%` and `_` escaped), newest first, scored by the share of keywords present.
 */
export async function likeSearch(
  ctx: KeywordContext,
  query: string,
  limit: number,
): Promise<ScoredRow<PgEntryRow>[]> {
  const keywords = extractLikeKeywords(query);
  if (keywords.length === 0) return [];
  const params = new SqlParams();
  const patterns = params.add(keywords.map(likePattern));
  const where = filterSql(ctx.filter, params);
  const { rows } = await ctx.db.query<PgEntryRow>(
    `SELECT ${entryColumns(ctx.withEmbedding)} FROM ${ctx.names.memories} m
     WHERE (m.content ILIKE ANY(${patterns}::text[]) OR m.key ILIKE ANY(${patterns}::text[]))${where}
     ORDER BY m.updated_at DESC, m.rid DESC LIMIT ${params.add(limit)}`,
    params.values,
  );
  return rows.map((row) => {
    const haystack = `${row.key}\n${row.content}`.toLowerCase();
    const matched = keywords.filter((k) => haystack.includes(k.toLowerCase())).length;
    return { row, score: matched / keywords.length };
  });
}
