import { bm25ToScore } from "../../recall/keyword-score.js";
import { byCoverage } from "../../recall/term-coverage.js";
import { mergeHits } from "../../recall/term-plan.js";
import { ftsTermExpression, ftsTermsOf } from "../../text/fts-query.js";
import { extractLikeKeywords, likePattern } from "../../text/like-keywords.js";
import { RANK_COLUMNS, type RankRow } from "../reads/entry-row.js";
import {
  type EntryFilter,
  type FilteredRow,
  filterSql,
  rowFilter,
  type SqlFragment,
} from "../reads/filter-sql.js";
import type { RowCache } from "../reads/row-cache.js";
import type { StatementCache } from "../schema/statement-cache.js";
import { bm25FromPostings, type RankedRids } from "./bm25-postings.js";
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
 * With `rows`, the rows of a top N ranked from held postings come from it (row-cache.ts).
 */
export function keywordSearch(
  statements: StatementCache,
  query: string,
  filter: EntryFilter,
  limit: number,
  budget = DEFAULT_KEYWORD_BUDGET,
  rows?: RowCache,
): KeywordHit[] {
  const terms = ftsTermsOf(query);
  if (terms.length === 0) return [];
  const { kept, dropped, overBudget, newestRowid, matchesAtMost } = planTerms(statements, terms, budget);
  // A metadata filter naming few entries (the metadata index): only matches among them are ranked.
  const cap = Math.max(NARROW_KEYWORD_MIN, Math.floor(newestRowid * NARROW_KEYWORD_SHARE));
  const narrow = narrowestField(statements, filter.where, cap);
  if (narrow?.count === 0) return [];
  // With kept rows, the filter is tested on them (null: it has metadata conditions, SQL tests it).
  const passes = rows === undefined ? null : rowFilter(filter);
  const search = { statements, filter, limit, narrow, matches: matchesAtMost, rows, passes };
  const exact = orOf(kept, false);
  // Even the rarest term is over the budget: the entries holding every term are fewer and the
  // best answers; the rarest term's own matches fill up when they are too few.
  const all = overBudget && dropped.length > 0 ? matchFts(search, andOf(terms)) : [];
  let hits = byCoverage(
    all.length >= limit ? all : mergeHits(all, matchFts(search, exact, undefined, kept)),
    terms,
  );
  if (hits.length >= limit) return hits;
  const prefixed = orOf(kept, true);
  if (prefixed !== exact) hits = byCoverage(mergeHits(hits, matchFts(search, prefixed)), terms);
  if (hits.length >= limit || dropped.length === 0) return hits.slice(0, limit);
  // The terms kept found too few: the dropped ones fill up, ranked among the newest entries only
  // (a budget's worth of rowids), as ranking them over the whole store is what the budget avoids.
  const after = Math.max(0, newestRowid - budget);
  const fill = matchFts(search, orOf(dropped, false), after);
  return byCoverage(mergeHits(hits, fill), terms).slice(0, limit);
}

function andOf(terms: readonly string[]): string {
  return terms.map((term) => `(${ftsTermExpression(term, false)})`).join(" AND ");
}

function orOf(terms: readonly string[], prefix: boolean): string {
  return terms.map((term) => ftsTermExpression(term, prefix)).join(" OR ");
}

/**
 * A metadata filter naming at most this share of the store (or NARROW_KEYWORD_MIN entries) ranks
 * only the matches among them: at 100k entries, a filter keeping 10 % went from 4.0× to 1.2× the
 * unfiltered recall (p50) with a 12k cap, against 4.8× with a 4k one.
 */
const NARROW_KEYWORD_SHARE = 0.15;
const NARROW_KEYWORD_MIN = 4096;

const NOTHING: SqlFragment = { sql: "", params: [] };

/** A limit as SQL text: only a non-negative integer is ever written into a statement. */
function integer(value: number): string {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`not a limit: ${value}`);
  return String(value);
}

/** The FTS top-N taken before joining and filtering: N = max(limit × 4, FTS_DEPTH_MIN). */
const FTS_DEPTH_MIN = 100;

/** One keyword search's fixed parts: its filter, how many hits it wants, the metadata narrowing. */
interface FtsSearch {
  statements: StatementCache;
  filter: EntryFilter;
  limit: number;
  narrow: FieldNarrowing | null;
  /** At most how many entries the kept terms match (common-terms.ts). */
  matches: number;
  rows: RowCache | undefined;
  /** The filter as a test of a kept row, or null: rowsOfTop() reads and filters in SQL. */
  passes: ((row: FilteredRow) => boolean) | null;
}

/**
 * The best `limit` entries passing `filter` for an FTS5 expression, by bm25 with the column
 * weights of fts-index.ts. The MATCH runs first, on its own, with a LIMIT, and the join and filter
 * apply to its top N: at 100k entries, 2.4 ms instead of 4.7 (p50) for joining every match. The
 * CROSS JOIN keeps that order; left to itself the planner scanned the namespace's rows instead
 * (21 ms). The top N is ranked by `bm25()` under SQLite's own top-N sort, not by FTS5's `rank`
 * column: ORDER BY rank puts FTS5 in its sorted mode, which sorts every match in a nested query
 * (100k entries: 1.9 ms against 3.2 for the whole statement; 10k: 250 µs against 355), and would
 * rank every match before a metadata filter's set is tested.
 *
 * A metadata filter naming few entries (`narrow`) ranks only the matches among them: FTS5 walks
 * the matches (rowids only), tests each against the set, and computes bm25 for those in it alone.
 * At 100k entries, a filter keeping 10 % went from 1.3× to 0.7× the unfiltered query (p50, with
 * the set probed), one keeping 2 % from 0.4× to 0.3×.
 */
function matchFts(
  search: FtsSearch,
  match: string,
  afterRowid?: number,
  words?: readonly string[],
): KeywordHit[] {
  const { statements, filter, limit, narrow } = search;
  const depth = Math.max(limit * 4, FTS_DEPTH_MIN);
  // The plain OR of the kept words, with no rowid or metadata narrowing: ranked from memory when
  // this connection holds their postings (bm25-postings.ts), with the same ranks.
  const held =
    words !== undefined && afterRowid === undefined && narrow === null
      ? bm25FromPostings(statements, words, depth)
      : null;
  if (held !== null) {
    const { rows, passes } = search;
    const hits =
      rows !== undefined && passes !== null
        ? keptRowsOfTop(rows, passes, held, limit)
        : hitsOf(rowsOfTop(statements, held, filter, limit));
    if (hits.length < limit && held.rids.length === depth) {
      return hitsOf(walkMatches(search, match, NOTHING));
    }
    return hits;
  }
  // FTS5 seeks a rowid range in its doclists: only entries after `afterRowid` are ranked.
  const recent = afterRowid === undefined ? "" : " AND memories_fts.rowid > ?";
  const member = narrow === null ? NOTHING : membership(narrow, search.matches);
  const matching: SqlFragment = {
    sql: `${recent}${member.sql}`,
    params: [...(afterRowid === undefined ? [] : [afterRowid]), ...member.params],
  };
  const where = filterSql(filter);
  // Raw rows (arrays) cost less to hand over than objects: ~10% of this query's time. Each row
  // also says how many the top N held (`n`), so a short answer tells whether the top N was full.
  // The limits are written into the SQL (integers, a few distinct ones): bound as parameters they
  // cost ~90 µs more per query at 10k entries (400 µs against 306).
  const rows = statements
    .get(
      `WITH top AS MATERIALIZED (
         SELECT rowid, bm25(memories_fts, ${COLUMN_WEIGHTS.join(", ")}) AS rank FROM memories_fts
         WHERE memories_fts MATCH ?${matching.sql} ORDER BY rank LIMIT ${integer(depth)})
       SELECT ${RANK_COLUMNS}, top.rank AS rank, (SELECT count(*) FROM top) AS n
       FROM top CROSS JOIN memories m ON m.rid = top.rowid
       WHERE 1 = 1${where.sql} ORDER BY top.rank LIMIT ${integer(limit)}`,
    )
    .raw()
    .all(match, ...matching.params, ...where.params) as RawTopRow[];
  // A selective filter (another namespace filling the index, a session, categories, dates,
  // superseded rows, a metadata filter's set) can reject most of a full top N while better-ranked
  // survivors lie beyond it. (With no row at all, the matches are counted.)
  if (rows.length < limit) {
    const full =
      rows.length > 0 ? rows[0]?.[9] === depth : countMatches(statements, match, matching, depth) === depth;
    if (full) return hitsOf(walkMatches(search, match, matching));
  }
  return hitsOf(rows);
}

/**
 * The entries of a top N ranked from memory that pass `filter`: the best `limit`, in rank order.
 * They are read `limit` at a time, best first, until `limit` pass (one read unless the filter
 * rejects some): joining and sorting the whole top N in one statement took ~1.7× as long at 10k.
 */
function rowsOfTop(
  statements: StatementCache,
  top: RankedRids,
  filter: EntryFilter,
  limit: number,
): RawRankedRow[] {
  const where = filterSql(filter);
  const batch = Math.min(limit, ROWS_PER_READ);
  const read = statements
    .get(
      `SELECT ${RANK_COLUMNS} FROM (VALUES ${Array(batch).fill("(?)").join(", ")}) top
       CROSS JOIN memories m ON m.rid = top.column1 WHERE 1 = 1${where.sql}`,
    )
    .raw();
  const position = new Map(top.rids.map((rid, i) => [rid, i]));
  const rows: RawRankedRow[] = [];
  for (let from = 0; from < top.rids.length && rows.length < limit; from += batch) {
    const rids: Array<number | null> = top.rids.slice(from, from + batch);
    while (rids.length < batch) rids.push(null);
    rows.push(...(read.all(...rids, ...where.params) as RawRankedRow[]));
  }
  rows.sort((a, b) => (position.get(a[0]) as number) - (position.get(b[0]) as number));
  rows.length = Math.min(rows.length, limit);
  for (const row of rows) row[8] = top.ranks[position.get(row[0]) as number] as number;
  return rows;
}

/** rowsOfTop() with the rows taken from `rows` and the filter tested on them (`passes`). */
function keptRowsOfTop(
  rows: RowCache,
  passes: (row: FilteredRow) => boolean,
  top: RankedRids,
  limit: number,
): KeywordHit[] {
  const hits: KeywordHit[] = [];
  for (let from = 0; from < top.rids.length && hits.length < limit; from += limit) {
    const read = rows.rows(top.rids.slice(from, from + limit));
    for (let i = 0; i < read.length && hits.length < limit; i++) {
      const row = read[i];
      if (row !== undefined && passes(row)) {
        hits.push({ row, score: bm25ToScore(top.ranks[from + i] as number) });
      }
    }
  }
  return hits;
}

/** At most this many rowids per statement of rowsOfTop. */
const ROWS_PER_READ = 100;

/**
 * How a match is tested against the set a metadata filter names: by a primary-key seek per match
 * when the set is larger than PROBE_OVER_SET times the matches, else against the set read once.
 * At 100k entries with 2.5k matches, a 10k set: probing 0.66×, reading it 0.81× the unfiltered
 * query; a 2k set: 0.50× and 0.29×. The unary + keeps the set from becoming a rowid constraint of
 * FTS5, which would run the whole MATCH once per rowid.
 */
function membership(narrow: FieldNarrowing, matches: number): SqlFragment {
  if (narrow.probe !== undefined && narrow.count > matches * PROBE_OVER_SET) {
    const probe = narrow.probe("memories_fts.rowid");
    return { sql: ` AND ${probe.sql}`, params: probe.params };
  }
  return { sql: ` AND +memories_fts.rowid IN (${narrow.sql})`, params: narrow.params };
}

const PROBE_OVER_SET = 2;

/** Every match (passing `matching`) that passes the filter, ranked: when a top N fell short. */
function walkMatches(search: FtsSearch, match: string, matching: SqlFragment): RawRankedRow[] {
  const where = filterSql(search.filter);
  return search.statements
    .get(
      `SELECT ${RANK_COLUMNS}, bm25(memories_fts, ${COLUMN_WEIGHTS.join(", ")}) AS rank
       FROM memories_fts JOIN memories m ON m.rid = memories_fts.rowid
       WHERE memories_fts MATCH ?${matching.sql}${where.sql} ORDER BY rank LIMIT ?`,
    )
    .raw()
    .all(match, ...matching.params, ...where.params, search.limit) as RawRankedRow[];
}

function hitsOf(rows: ReadonlyArray<RawRankedRow | RawTopRow>): KeywordHit[] {
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
/** A RawRankedRow, then how many entries the top N it came from held. */
type RawTopRow = [...RawRankedRow, number];

/** How many entries match (and pass `matching`), counting no further than `atMost`. */
function countMatches(
  statements: StatementCache,
  match: string,
  matching: SqlFragment,
  atMost: number,
): number {
  return statements
    .get(
      `SELECT count(*) FROM (SELECT 1 FROM memories_fts WHERE memories_fts MATCH ?${matching.sql} LIMIT ?)`,
    )
    .pluck()
    .get(match, ...matching.params, atMost) as number;
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
