import { planTermsByDocuments, porterStem, type TermPlan } from "@claw/memory-core";
import type { Queryable } from "../db/pool.js";
import type { SqlNames } from "../db/sql-names.js";
import { andIndexTerms } from "./and-index-terms.js";
import { type RecentWindow, recentWindow } from "./recent-window.js";

/**
 * Entries a PostgreSQL keyword query ranks at most when it can (core's term-plan.ts). ts_rank_cd
 * costs ~3–6 µs per match and fetching a match ~2 µs, so this keeps the ranking near 5–8 ms; at
 * 100k entries, typed queries of common words ranked 400–800 ms of matches before.
 */
export const PG_KEYWORD_BUDGET = 1_000;

/** How long the statistics read are used before they are read again. */
const STATS_TTL_MS = 60_000;

/** What ANALYZE learnt of the full-text column: the rows, and the share of them holding each common lexeme. */
interface FtsStats {
  rows: number;
  shares: Map<string, number>;
  /** The smallest share listed: a lexeme not listed is rarer. */
  floor: number;
  /** The lowest and highest rid when read: the span a recent window is cut from. */
  lowestRid: number;
  highestRid: number;
}

/**
 * How many entries each query term matches, estimated from the planner's statistics of the
 * full-text column (ANALYZE lists the ~1,000 most common lexemes with the share of rows holding
 * each, table-analyzer.ts keeps them current), then core's plan. Nothing is counted per query: a
 * listed word costs its share of the rows, an unlisted one half the smallest share listed (it is
 * rarer than that). A word is looked up as written and by its Porter stem (the language
 * configuration's stems are close to it): a plan needs only the order of magnitude. Without
 * statistics (a table never analysed) every term is kept, as before plans. Counts cover every
 * namespace.
 */
export interface TermPlanner {
  /** Matching entries a query ranks at most when it can. */
  readonly budget: number;
  plan(db: Queryable, terms: readonly string[]): Promise<TermPlan>;
  /**
   * Each term's inverse document frequency, ln(1 + (N − n + 0.5) / (n + 0.5)) from the same
   * estimates (BM25's, never below zero); 1 for a term without an estimate (a phrase, or a table
   * never analysed).
   */
  idf(db: Queryable, terms: readonly string[]): Promise<number[]>;
  /**
   * The newest entries, holding about `wanted` matches, a pass matching `terms` (any or all of
   * them) ranks when it would match more than the budget (recent-window.ts); null when it fits,
   * or without statistics.
   */
  recentFrom(
    db: Queryable,
    terms: readonly string[],
    match: "any" | "all",
    wanted: number,
  ): Promise<RecentWindow | null>;
  /**
   * The terms of an AND pass the full-text index should intersect, the others being tested on
   * the rows it finds (and-index-terms.ts); null when all of them, or without statistics.
   */
  andIndexTerms(db: Queryable, terms: readonly string[]): Promise<string[] | null>;
}

export function createTermPlanner(
  names: SqlNames,
  budget = PG_KEYWORD_BUDGET,
  now: () => number = () => Date.now(),
): TermPlanner {
  let stats: { value: FtsStats | null; atMs: number } | null = null;

  async function current(db: Queryable): Promise<FtsStats | null> {
    const at = now();
    if (stats === null || at - stats.atMs > STATS_TTL_MS)
      stats = { value: await readStats(db, names), atMs: at };
    return stats.value;
  }

  return {
    budget,
    async plan(db, terms) {
      const read = await current(db);
      const documents = new Map<string, number>();
      if (read !== null) {
        for (const term of terms) {
          const n = estimate(read, term);
          if (n !== undefined) documents.set(term, n);
        }
      }
      // A table no larger than the budget (or never analysed: 0) keeps every term.
      return planTermsByDocuments(terms, documents, budget, read?.rows ?? 0);
    },
    async idf(db, terms) {
      const read = await current(db);
      return terms.map((term) => {
        const n = read === null ? undefined : estimate(read, term);
        if (read === null || n === undefined) return 1;
        return Math.log(1 + (read.rows - n + 0.5) / (n + 0.5));
      });
    },
    async recentFrom(db, terms, match, wanted) {
      const read = await current(db);
      if (read === null) return null;
      const counts = terms.map((term) => estimate(read, term));
      return recentWindow({ ...read, counts, match, budget, wanted });
    },
    async andIndexTerms(db, terms) {
      const read = await current(db);
      if (read === null) return null;
      const indexed = andIndexTerms({
        rows: read.rows,
        counts: terms.map((term) => estimate(read, term)),
        budget,
      });
      return indexed === null ? null : indexed.map((i) => terms[i] as string);
    },
  };
}

/** Plain words only: a CJK run or a word with an apostrophe is a phrase, kept unmeasured. */
const MEASURABLE = /^[\p{L}\p{N}]+$/u;

function estimate(stats: FtsStats, term: string): number | undefined {
  if (!MEASURABLE.test(term)) return undefined;
  const stem = /^[a-z0-9]+$/.test(term) ? porterStem(term) : term;
  const share = Math.max(stats.shares.get(term) ?? 0, stats.shares.get(stem) ?? 0);
  return Math.round((share > 0 ? share : stats.floor / 2) * stats.rows);
}

/** The table's estimated rows and the full-text column's common lexemes; null when never analysed. */
async function readStats(db: Queryable, names: SqlNames): Promise<FtsStats | null> {
  const { rows } = await db.query<{
    rows: number;
    elems: string[] | null;
    freqs: number[] | null;
    lowest: number | null;
    highest: number | null;
  }>(
    `SELECT c.reltuples::float8 AS rows, s.most_common_elems::text::text[] AS elems,
       s.most_common_elem_freqs::float8[] AS freqs,
       (SELECT min(rid)::float8 FROM ${names.memories}) AS lowest,
       (SELECT max(rid)::float8 FROM ${names.memories}) AS highest
     FROM pg_class c LEFT JOIN pg_stats s
       ON s.schemaname = $1 AND s.tablename = 'claw_memories' AND s.attname = 'fts'
     WHERE c.oid = '${names.memories}'::regclass`,
    [names.raw],
  );
  const row = rows[0];
  if (row === undefined || !(row.rows > 0) || row.elems === null || row.freqs === null) return null;
  if (row.lowest === null || row.highest === null) return null;
  // The frequencies list one per lexeme, then their minimum and maximum.
  const shares = new Map<string, number>();
  let floor = 1;
  for (const [i, lexeme] of row.elems.entries()) {
    const share = row.freqs[i] ?? 0;
    shares.set(lexeme, share);
    floor = Math.min(floor, share);
  }
  return { rows: row.rows, shares, floor, lowestRid: row.lowest, highestRid: row.highest };
}
