import { bm25ToScore } from "../../recall/keyword-score.js";
import { byCoverage } from "../../recall/term-coverage.js";
import { ftsTermExpression, ftsTermsOf } from "../../text/fts-query.js";
import { extractLikeKeywords, likePattern } from "../../text/like-keywords.js";
import { RANK_COLUMNS, type RankRow } from "../reads/entry-row.js";
import { type EntryFilter, filterSql } from "../reads/filter-sql.js";
import type { StatementCache } from "../schema/statement-cache.js";
import { DEFAULT_KEYWORD_BUDGET, planTerms } from "./common-terms.js";
import { COLUMN_WEIGHTS } from "./fts-index.js";
import { type FieldNarrowing, narrowestField } from "./metadata-fields.js";

export interface KeywordHit {
  row: RankRow;
  /** BM25 magnitude (higher is better) or, for the LIKE fallback, the share of keywords matched. */
  score: number;
}

/**
 * BM25 over the FTS5 index: the query's terms OR-ed (user text always quoted as data), without
 * the terms too common to rank by within the budget (common-terms.ts). When that finds fewer than
 * `limit` entries, prefix terms widen the net ("deploy" → "deployment"), then the dropped terms.
 */
export function keywordSearch(
  statements: StatementCache,
  query: string,
  filter: EntryFilter,
  limit: number,
  budget = DEFAULT_KEYWORD_BUDGET,
): KeywordHit[] {
  const terms = ftsTermsOf(query);
  if (terms.length === 0) return [];
  const { kept, dropped, overBudget, newestRowid } = planTerms(statements, terms, budget);
  // A metadata filter naming few entries (the metadata index): only matches among them are ranked.
  const cap = Math.max(NARROW_KEYWORD_MIN, Math.floor(newestRowid * NARROW_KEYWORD_SHARE));
  const narrow = narrowestField(statements, filter.where, cap);
  if (narrow?.count === 0) return [];
  const search = { statements, filter, limit, narrow };
  const exact = orOf(kept, false);
  // Even the rarest term is over the budget: the entries holding every term are fewer and the
  // best answers; the rarest term's own matches fill up when they are too few.
  const all = overBudget && dropped.length > 0 ? matchFts(search, andOf(terms)) : [];
  let hits = byCoverage(all.length >= limit ? all : merged(all, matchFts(search, exact)), terms);
  if (hits.length >= limit) return hits;
  const prefixed = orOf(kept, true);
  if (prefixed !== exact) hits = byCoverage(merged(hits, matchFts(search, prefixed)), terms);
  if (hits.length >= limit || dropped.length === 0) return hits.slice(0, limit);
  // The terms kept found too few: the dropped ones fill up, ranked among the newest entries only
  // (a budget's worth of rowids), as ranking them over the whole store is what the budget avoids.
  const after = Math.max(0, newestRowid - budget);
  const fill = matchFts(search, orOf(dropped, false), after);
  return byCoverage(merged(hits, fill), terms).slice(0, limit);
}

function andOf(terms: readonly string[]): string {
  return terms.map((term) => `(${ftsTermExpression(term, false)})`).join(" AND ");
}

function orOf(terms: readonly string[], prefix: boolean): string {
  return terms.map((term) => ftsTermExpression(term, prefix)).join(" OR ");
}

/** Two hit lists as one; an entry in both keeps its better score. */
function merged(hits: readonly KeywordHit[], more: readonly KeywordHit[]): KeywordHit[] {
  const byRid = new Map(hits.map((h) => [h.row.rid, h]));
  for (const hit of more) {
    const known = byRid.get(hit.row.rid);
    if (known === undefined || known.score < hit.score) byRid.set(hit.row.rid, hit);
  }
  return [...byRid.values()];
}

/**
 * A metadata filter naming at most this share of the store (or NARROW_KEYWORD_MIN entries) ranks
 * only the matches among them: at 100k entries, a filter keeping 10 % went from 4.0× to 1.2× the
 * unfiltered recall (p50) with a 12k cap, against 4.8× with a 4k one.
 */
const NARROW_KEYWORD_SHARE = 0.15;
const NARROW_KEYWORD_MIN = 4096;

/** The FTS top-N taken before joining and filtering: N = max(limit × 4, FTS_DEPTH_MIN). */
const FTS_DEPTH_MIN = 100;

/**
 * The best `limit` entries passing `filter` for an FTS5 expression, by bm25 (FTS5's `rank`,
 * configured with the column weights of fts-index.ts). FTS5 only ranks cheaply (no memories row fetched per match, no
 * sort of every match) when the MATCH query is on its own, so it runs first with a LIMIT and the
 * join and filter apply to its top N: at 100k entries, 2.4 ms instead of 4.7 (p50). The CROSS JOIN
 * keeps that order; left to itself the planner scanned the namespace's rows instead (21 ms).
 */
/** One keyword search's fixed parts: its filter, how many hits it wants, the metadata narrowing. */
interface FtsSearch {
  statements: StatementCache;
  filter: EntryFilter;
  limit: number;
  narrow: FieldNarrowing | null;
}

function matchFts(search: FtsSearch, match: string, afterRowid?: number): KeywordHit[] {
  const { statements, filter, limit, narrow } = search;
  const where = filterSql(filter);
  const depth = Math.max(limit * 4, FTS_DEPTH_MIN);
  // FTS5 seeks a rowid range in its doclists: only entries after `afterRowid` are ranked.
  const recent = afterRowid === undefined ? "" : " AND memories_fts.rowid > ?";
  const recentParams = afterRowid === undefined ? [] : [afterRowid];
  // Raw rows (arrays) cost less to hand over than objects: ~10% of this query's time. With a
  // narrowing metadata filter the FTS top N would mostly fail it: the walk below runs at once.
  let rows =
    narrow !== null
      ? []
      : (statements
          .get(
            `SELECT ${RANK_COLUMNS}, top.rank AS rank
       FROM (SELECT rowid, rank FROM memories_fts WHERE memories_fts MATCH ?${recent} ORDER BY rank LIMIT ?) AS top
       CROSS JOIN memories m ON m.rid = top.rowid
       WHERE 1 = 1${where.sql} ORDER BY top.rank LIMIT ?`,
          )
          .raw()
          .all(match, ...recentParams, depth, ...where.params, limit) as RawRankedRow[]);
  // A selective filter (another namespace filling the index, a session, categories, dates,
  // superseded rows) can reject most of the top N while better-ranked survivors lie beyond it.
  if (narrow !== null || (rows.length < limit && countMatches(statements, match, depth) === depth)) {
    // With a metadata filter naming few entries, only the matches among them are ranked and read.
    // The unary + keeps the set from becoming a rowid constraint of FTS5, which would run the
    // whole MATCH once per rowid; as written, the matches are walked once and tested against it.
    const only = narrow === null ? "" : ` AND +memories_fts.rowid IN (${narrow.sql})`;
    rows = statements
      .get(
        `SELECT ${RANK_COLUMNS}, bm25(memories_fts, ${COLUMN_WEIGHTS.join(", ")}) AS rank
         FROM memories_fts JOIN memories m ON m.rid = memories_fts.rowid
         WHERE memories_fts MATCH ?${recent}${only}${where.sql} ORDER BY rank LIMIT ?`,
      )
      .raw()
      .all(match, ...recentParams, ...(narrow?.params ?? []), ...where.params, limit) as RawRankedRow[];
  }
  return rows.map((r) => ({
    row: {
      rid: r[0],
      key: r[1],
      content: r[2],
      category: r[3],
      created_at: r[4],
      updated_at: r[5],
      session_id: r[6],
      namespace: r[7],
    },
    score: bm25ToScore(r[8]),
  }));
}

/** RANK_COLUMNS in their order, then the rank. */
type RawRankedRow = [number, string, string, string, string, string, string | null, string, number];

/** How many entries match, counting no further than `atMost`. */
function countMatches(statements: StatementCache, match: string, atMost: number): number {
  const row = statements
    .get("SELECT count(*) AS n FROM (SELECT 1 FROM memories_fts WHERE memories_fts MATCH ? LIMIT ?)")
    .get(match, atMost) as { n: number };
  return row.n;
}

/**
 * The last resort when ranked search found nothing: substring match of up to 8 keywords over
 * content and key (`%` and `_` escaped), newest first, scored by the share of keywords present.
 */
export function likeSearch(
  statements: StatementCache,
  query: string,
  filter: EntryFilter,
  limit: number,
): KeywordHit[] {
  const keywords = extractLikeKeywords(query);
  if (keywords.length === 0) return [];
  // This reads rows one by one: a metadata filter naming few entries reads only those.
  const narrow = narrowestField(statements, filter.where, NARROW_KEYWORD_MIN);
  if (narrow?.count === 0) return [];
  const only = narrow === null ? "" : ` AND m.rid IN (${narrow.sql})`;
  const where = filterSql(filter);
  const any = keywords.map(() => "m.content LIKE ? ESCAPE '\\' OR m.key LIKE ? ESCAPE '\\'").join(" OR ");
  const patterns = keywords.flatMap((k) => [likePattern(k), likePattern(k)]);
  const rows = statements
    .get(
      `SELECT ${RANK_COLUMNS} FROM memories m WHERE (${any})${only}${where.sql}
       ORDER BY m.updated_at DESC LIMIT ?`,
    )
    .all(...patterns, ...(narrow?.params ?? []), ...where.params, limit) as RankRow[];
  return rows.map((row) => {
    const haystack = `${row.key}\n${row.content}`.toLowerCase();
    const matched = keywords.filter((k) => haystack.includes(k.toLowerCase())).length;
    return { row, score: matched / keywords.length };
  });
}
