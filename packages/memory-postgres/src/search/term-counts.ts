import { planTermsByDocuments, type TermPlan } from "@claw/memory-core";
import type { Queryable } from "../db/pool.js";
import type { SqlNames } from "../db/sql-names.js";
import { SqlParams } from "../store/sql-params.js";
import { tsQuerySql } from "./tsquery-sql.js";

/**
 * Entries a PostgreSQL keyword query ranks at most when it can (core's term-plan.ts). ts_rank_cd
 * costs ~6 µs per match and fetching a match ~2 µs, so this keeps the ranking near 10 ms; at
 * 100k entries, typed queries of common words ranked 400–800 ms of matches before.
 */
export const PG_KEYWORD_BUDGET = 1_000;

/** How long a count is trusted, and the growth of the table after which it is read again. */
const COUNT_TTL_MS = 60_000;
const STALE_ROWS = 1_000;
const STALE_SHARE = 0.1;
/** How long the newest rid is trusted: it only bounds the dropped terms' fill-up. */
const NEWEST_TTL_MS = 1_000;
const COUNTED_MAX = 10_000;

interface Counted {
  documents: number;
  atRid: number;
  atMs: number;
}

/**
 * Each query term's entries, counted up to just past the budget (a count stops there: a term's
 * cost to count is bounded by the budget, ~2 µs a row, whatever its frequency), remembered per
 * store until the table has grown by a tenth or a minute has passed, then the plan of core's
 * planTermsByDocuments. A plan needs only the order of magnitude: counts cover every namespace.
 */
export interface TermCounter {
  /** Matching entries a query ranks at most when it can. */
  readonly budget: number;
  plan(db: Queryable, terms: readonly string[]): Promise<TermPlan>;
}

export function createTermCounter(
  names: SqlNames,
  textSearchConfig: string,
  budget = PG_KEYWORD_BUDGET,
  now: () => number = () => Date.now(),
): TermCounter {
  const counted = new Map<string, Counted>();
  let newest: { rid: number; atMs: number } | null = null;

  function fresh(term: string, newestRid: number, at: number): Counted | undefined {
    const known = counted.get(term);
    if (known === undefined || at - known.atMs > COUNT_TTL_MS) return undefined;
    const grown = newestRid - known.atRid;
    return grown > Math.max(STALE_ROWS, known.atRid * STALE_SHARE) ? undefined : known;
  }

  return {
    budget,
    async plan(db, terms) {
      const at = now();
      const knownRid = newest !== null && at - newest.atMs <= NEWEST_TTL_MS ? newest.rid : null;
      const unknown =
        knownRid !== null && knownRid <= budget
          ? []
          : terms.filter((t) => fresh(t, knownRid ?? 0, at) === undefined);
      let newestRid = knownRid ?? 0;
      if (unknown.length > 0 || knownRid === null) {
        const read = await countTerms(db, names, textSearchConfig, unknown, budget);
        newestRid = read.newestRid;
        newest = { rid: newestRid, atMs: at };
        if (counted.size + read.documents.size > COUNTED_MAX) counted.clear();
        for (const [term, documents] of read.documents)
          counted.set(term, { documents, atRid: newestRid, atMs: at });
      }
      if (newestRid <= budget) return planTermsByDocuments(terms, new Map(), budget, newestRid);
      const documents = new Map<string, number>();
      for (const term of terms) {
        const known = counted.get(term);
        if (known !== undefined && known.documents > 0) documents.set(term, known.documents);
      }
      return planTermsByDocuments(terms, documents, budget, newestRid);
    },
  };
}

/** The newest rid and, when the table is larger than the budget, each term's entries up to budget + 1. */
async function countTerms(
  db: Queryable,
  names: SqlNames,
  config: string,
  terms: readonly string[],
  budget: number,
): Promise<{ newestRid: number; documents: Map<string, number> }> {
  if (!Number.isSafeInteger(budget) || budget < 0) throw new RangeError(`not a budget: ${budget}`);
  const params = new SqlParams();
  // An integer of ours, written into the SQL (LIMIT and the comparison want different types).
  const cap = String(budget + 1);
  const counts = terms.map((term) => {
    const query = tsQuerySql([term], config, params);
    return `(SELECT count(*)::int FROM (SELECT 1 FROM ${names.memories} m WHERE m.fts @@ (${query}) LIMIT ${cap}) s)`;
  });
  // Counting is skipped when the whole table fits the budget (the plan keeps every term then).
  const newest = `(SELECT coalesce(max(rid), 0)::float8 FROM ${names.memories})`;
  const list =
    counts.length === 0 ? "" : `, CASE WHEN ${newest} > ${budget} THEN ARRAY[${counts.join(", ")}] END`;
  const { rows } = await db.query<{ newest: number; counts?: number[] | null }>(
    `SELECT ${newest} AS newest${list === "" ? "" : `${list} AS counts`}`,
    params.values,
  );
  const row = rows[0];
  const documents = new Map<string, number>();
  for (const [i, term] of terms.entries()) {
    const n = row?.counts?.[i];
    if (n !== undefined && n !== null) documents.set(term, n);
  }
  return { newestRid: Number(row?.newest ?? 0), documents };
}
