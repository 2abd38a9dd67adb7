import type { ScoredRow, SessionNeighbours } from "@claw/memory-core";
import {
  byCoverage,
  extractLikeKeywords,
  ftsTermsOf,
  lendToNeighbours,
  likePattern,
  mergeHits,
} from "@claw/memory-core";
import type { Queryable } from "../db/pool.js";
import type { SqlNames } from "../db/sql-names.js";
import { entryColumns, type PgEntryRow } from "../store/entry-row.js";
import { type EntryFilter, filterSql, SqlParams } from "../store/filter-sql.js";
import { FTS_RANK_WEIGHTS } from "../store/fts-vector.js";
import type { RecentWindow } from "./recent-window.js";
import type { TermPlanner } from "./term-stats.js";
import { termExpression } from "./tsquery.js";
import { allTermsSql, idfShareSql, tsQuerySql } from "./tsquery-sql.js";

export interface KeywordContext {
  db: Queryable;
  names: SqlNames;
  textSearchConfig: string;
  filter: EntryFilter;
  withEmbedding: boolean;
  /** The store's term planner, which leaves a query's most common terms out of the match. */
  terms: TermPlanner;
}

/**
 * ts_rank_cd (every position weighted 1, divided by 1 + log(length)) times this lands on the
 * magnitudes of FTS5's BM25 for short entries, which the pipeline's strength (score / (1 + score))
 * and its early-return threshold were tuned on.
 */
const RANK_SCALE = 4;

/**
 * ts_rank_cd knows no term is rarer than another: the main pass ranks this many times its limit
 * by it, then those by ts_rank_cd × the share of the query's IDF each holds (idfShareSql). LoCoMo
 * recall@10 0.625 → 0.652 and BEAM 0.370 → 0.395 on PostgreSQL (the whole match set ranked so
 * gave the same on both); the share squared gave 0.679 / 0.380, below plain FTS5's 0.383 on BEAM.
 */
const IDF_POOL = 5;

/**
 * Ranked full-text search, as core's SQLite search: the query's terms OR-ed, ranked by
 * ts_rank_cd weighted by the share of the query's IDF each entry holds, then scaled by the share
 * of query terms it covers (core's byCoverage), without the terms too common to rank by within
 * the budget (term-stats.ts); a pass still over it ranks the newest entries only (recent-window.ts).
 * When that finds fewer than `limit` entries, prefix terms widen the net ("deploy" →
 * "deployment"), then the dropped terms, ranked among the budget's newest entries.
 */
export async function keywordSearch(
  ctx: KeywordContext,
  query: string,
  limit: number,
): Promise<ScoredRow<PgEntryRow>[]> {
  const terms = ftsTermsOf(query);
  if (terms.length === 0) return [];
  const { kept, dropped, overBudget } = await ctx.terms.plan(ctx.db, terms);
  // Even the rarest term is over the budget: the entries holding every term are fewer and the
  // best answers; the rarest term's own matches fill up when they are too few.
  let all: ScoredRow<PgEntryRow>[] = [];
  if (overBudget && dropped.length > 0) {
    // The index intersects the rarer terms; the common ones are tested on the rows it finds.
    const indexed = await ctx.terms.andIndexTerms(ctx.db, terms);
    all = await matchRecent(
      ctx,
      limit,
      (p) => allTermsSql(terms, ctx.textSearchConfig, p),
      { terms, match: "all" },
      undefined,
      indexed === null ? undefined : (p) => allTermsSql(indexed, ctx.textSearchConfig, p),
    );
  }
  const exact = (p: SqlParams) => tsQuerySql(kept, ctx.textSearchConfig, p);
  const idf = { terms, weights: await ctx.terms.idf(ctx.db, terms) };
  let hits = byCoverage(
    all.length >= limit
      ? all
      : mergeHits(all, await matchRecent(ctx, limit, exact, { terms: kept, match: "any" }, idf)),
    terms,
  );
  if (hits.length >= limit) return hits;
  if (kept.some((term) => termExpression(term, true) !== termExpression(term, false))) {
    const prefixed = await matchFts(ctx, limit, (p) => tsQuerySql(kept, ctx.textSearchConfig, p, true));
    hits = byCoverage(mergeHits(hits, prefixed), terms);
  }
  if (hits.length >= limit || dropped.length === 0) return hits.slice(0, limit);
  const fill = await matchFts(ctx, limit, (p) => tsQuerySql(dropped, ctx.textSearchConfig, p), {
    newest: ctx.terms.budget,
  });
  return byCoverage(mergeHits(hits, fill), terms).slice(0, limit);
}

/**
 * A pass over the budget ranks a window of the newest entries estimated to hold this many times
 * the pool it re-ranks by IDF (400 for a limit of 40). 1M entries, the speed suite's common words,
 * keyword p50 rare / typed (ms, one store, runs of one session): every match ranked 31.0 / 32.5;
 * windows of 1,000 matches 18.1–22.4 / 18.3–22.4, 500 12.4–18.7 / 12.9–19.0, 400 17.1–18.3 /
 * 15.6–19.2, 300 13.5–15.9 / 12.1–12.4 — below 1,000 the machine's noise; 400 leaves the pool room.
 */
const WINDOW_POOLS = 2;

/** Which entries a pass ranks when not all: the `newest` by rid, or a recent window. */
type Recent = { newest: number } | RecentWindow;

/**
 * matchFts over the newest entries when the planner estimates that the pass matches more than its
 * budget (recent-window.ts): the full-text index's bitmap meets the rid BRIN index's, or a small
 * window is read row by row. When an OR's window holds fewer than `limit` (an estimate too high,
 * a filter, terms found mostly in older entries), the pass runs again over every entry; an AND's
 * shortfall is left to the rarest term's pass that follows it.
 */
async function matchRecent(
  ctx: KeywordContext,
  limit: number,
  tsquery: (params: SqlParams) => string | null,
  estimate: { terms: readonly string[]; match: "any" | "all" },
  idf?: { terms: readonly string[]; weights: readonly number[] },
  narrow?: (params: SqlParams) => string | null,
): Promise<ScoredRow<PgEntryRow>[]> {
  const wanted = WINDOW_POOLS * IDF_POOL * limit;
  const window = await ctx.terms.recentFrom(ctx.db, estimate.terms, estimate.match, wanted);
  if (window !== null) {
    const recent = await matchFts(ctx, limit, tsquery, window, idf, narrow);
    if (recent.length >= limit || estimate.match === "all") return recent;
  }
  return matchFts(ctx, limit, tsquery, undefined, idf, narrow);
}

/**
 * The best `limit` entries passing the filter for a tsquery (`tsquery` writes its SQL), ranked by
 * ts_rank_cd; with `idf`, the best IDF_POOL × `limit` by it ranked again by ts_rank_cd × their
 * share of the terms' IDF. The tsquery is computed once (a MATERIALIZED CTE: inlined, PostgreSQL
 * parsed and stemmed the query text again for every match it ranked, 18.8 against 7.8 ms over
 * 495 matches), and only the top `limit` rows are read whole. With `narrow` (a tsquery every
 * match of `tsquery` matches too), the full-text index answers `narrow` and each row it finds is
 * tested against `tsquery` (and-index-terms.ts).
 */
async function matchFts(
  ctx: KeywordContext,
  limit: number,
  tsquery: (params: SqlParams) => string | null,
  only?: Recent,
  idf?: { terms: readonly string[]; weights: readonly number[] },
  narrow?: (params: SqlParams) => string | null,
): Promise<ScoredRow<PgEntryRow>[]> {
  const params = new SqlParams();
  const query = tsquery(params);
  if (query === null) return [];
  const scan = only !== undefined && "scan" in only && only.scan;
  const narrowQuery = scan || narrow === undefined ? null : narrow(params);
  const recent =
    only === undefined
      ? ""
      : "newest" in only
        ? ` AND m.rid > (SELECT coalesce(max(rid), 0) FROM ${ctx.names.memories}) - ${params.add(only.newest)}::bigint`
        : ` AND m.rid > ${params.add(only.afterRid)}::bigint`;
  // ts_match_vq is @@ as a function call: the planner cannot answer it from the full-text index.
  const matches = scan
    ? "ts_match_vq(m.fts, q.query)"
    : narrowQuery === null
      ? "m.fts @@ q.query"
      : "m.fts @@ q.narrow AND ts_match_vq(m.fts, q.query)";
  const where = filterSql(ctx.filter, params);
  const weighted =
    idf === undefined ? null : idfShareSql(idf.terms, idf.weights, ctx.textSearchConfig, params, "pool.fts");
  const ranked = (n: number, fts = "") =>
    `SELECT m.rid${fts}, ts_rank_cd('${FTS_RANK_WEIGHTS}', m.fts, q.query, 1) AS rank
       FROM ${ctx.names.memories} m, q
       WHERE ${matches}${recent}${where}
       ORDER BY rank DESC, m.rid LIMIT ${params.add(n)}`;
  const top =
    weighted === null
      ? `top AS MATERIALIZED (${ranked(limit)})`
      : `pool AS MATERIALIZED (${ranked(limit * IDF_POOL, ", m.fts")}),
     top AS MATERIALIZED (
       SELECT pool.rid, pool.rank * ${weighted.share} AS rank FROM pool, q
       ORDER BY rank DESC, pool.rid LIMIT ${params.add(limit)})`;
  const { rows } = await ctx.db.query<PgEntryRow & { rank: number }>(
    `WITH q AS MATERIALIZED (SELECT ${query} AS query${narrowQuery === null ? "" : `, ${narrowQuery} AS narrow`}${weighted === null ? "" : `, ${weighted.columns}`}),
     ${top}
     SELECT ${entryColumns(ctx.withEmbedding)}, top.rank AS rank
     FROM top JOIN ${ctx.names.memories} m ON m.rid = top.rid
     ORDER BY top.rank DESC, m.rid`,
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
    `(SELECT ${op === ">"} AS after, ${columns} FROM ${ctx.names.memories} m
      WHERE m.namespace = h.namespace AND m.session_id = h.session_id
        AND (m.created_at, m.rid) ${op} (h.created_at, h.rid)${where}
      ORDER BY m.created_at ${order}, m.rid ${order} LIMIT 1)`;
  const { rows } = await ctx.db.query<PgEntryRow & { hit_rid: number; after: boolean }>(
    `SELECT h.rid AS hit_rid, n.* FROM ${ctx.names.memories} h
     CROSS JOIN LATERAL (${side("<", "DESC")} UNION ALL ${side(">", "ASC")}) n
     WHERE h.rid = ANY(${rids}::bigint[])`,
    params.values,
  );
  const neighbours = new Map<number, SessionNeighbours<PgEntryRow>>();
  for (const { hit_rid, after, ...row } of rows) {
    neighbours.set(hit_rid, { ...neighbours.get(hit_rid), [after ? "after" : "before"]: row });
  }
  return lendToNeighbours(hits, (hit) => neighbours.get(hit.row.rid) ?? {}, weight);
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
