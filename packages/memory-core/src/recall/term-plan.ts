/**
 * What a keyword query costs is the number of entries its terms match: every one of them is
 * ranked (FTS5's bm25 at ~1 µs each, PostgreSQL's ts_rank_cd at ~6 µs) before the best few are
 * kept. A word found in a large share of the store ("user" in an agent's memories) makes a query
 * rank most of the store while telling the ranking little: BM25's idf is ~1.4 at 20 % of the
 * entries and clamped to zero from half of them. So a query ranks at most `budget` matching
 * entries when it can: its most common terms leave the match, rarest kept first, until the rest
 * fit; they still count through term coverage in the re-rank (term-coverage.ts). A query that
 * fits the budget is untouched, which is every query of a store smaller than the budget. Each
 * backend measures its terms its own way (SQLite: the FTS5 vocabulary; PostgreSQL: bounded counts).
 */

/** Which query terms a keyword search matches on, and which it leaves to the re-rank. */
export interface TermPlan {
  /** Terms the match ranks on, in query order. */
  kept: string[];
  /** Terms left out for their cost, most common first. */
  dropped: string[];
  /** Even the rarest term alone matches more entries than the budget. */
  overBudget: boolean;
  /** The highest rowid of the store: the dropped terms fill up among the budget's newest. */
  newestRowid: number;
  /** At most how many entries the kept terms match (the store's size when a term is unmeasured). */
  matchesAtMost: number;
}

/**
 * Splits `terms` by `documents`, the entries each matches (absent: not measurable, counted as
 * none, so the plan can only leave such a term in the match, never drop it). The rarest term
 * always stays.
 */
export function planTermsByDocuments(
  terms: readonly string[],
  documents: ReadonlyMap<string, number>,
  budget: number,
  newestRowid: number,
): TermPlan {
  const all = { kept: [...terms], dropped: [], overBudget: false, newestRowid, matchesAtMost: newestRowid };
  if (budget <= 0 || newestRowid <= budget) return all;
  const byCost = [...terms].sort((a, b) => (documents.get(a) ?? 0) - (documents.get(b) ?? 0));
  const kept = new Set<string>();
  let cost = 0;
  for (const term of byCost) {
    const n = documents.get(term) ?? 0;
    if (kept.size > 0 && cost + n > budget) break;
    kept.add(term);
    cost += n;
  }
  const measured = [...kept].every((term) => documents.has(term));
  return {
    kept: terms.filter((term) => kept.has(term)),
    dropped: byCost.filter((term) => !kept.has(term)).reverse(),
    overBudget: cost > budget,
    newestRowid,
    matchesAtMost: measured ? Math.min(cost, newestRowid) : newestRowid,
  };
}

/**
 * Two hit lists of a keyword search's passes (the kept terms, prefixes, the dropped terms' fill-up)
 * as one; an entry in both keeps its better score. Unordered: the caller re-ranks (byCoverage).
 */
export function mergeHits<H extends { row: { rid: number }; score: number }>(
  hits: readonly H[],
  more: readonly H[],
): H[] {
  const byRid = new Map(hits.map((h) => [h.row.rid, h]));
  for (const hit of more) {
    const known = byRid.get(hit.row.rid);
    if (known === undefined || known.score < hit.score) byRid.set(hit.row.rid, hit);
  }
  return [...byRid.values()];
}
