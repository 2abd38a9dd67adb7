import { porterStem } from "../../text/porter-stem.js";
import type { StatementCache } from "../schema/statement-cache.js";

/**
 * What a keyword query costs is the number of entries its terms match: FTS5 computes a bm25 for
 * every one of them (about 1 µs each) before it keeps the best few. A word found in a large share
 * of the store ("user" in an agent's memories) makes a query rank most of the store, 15–90 ms at
 * 100k entries, while telling BM25 little: idf = log((N − n + ½) / (n + ½)) is ~1.4 at 20 % of the
 * entries and clamped to zero from half of them. So a query ranks at most `budget` matching
 * entries when it can: its most common terms leave the MATCH, rarest kept first, until the rest
 * fit; they still count through term coverage in the re-rank (term-coverage.ts). A query that
 * fits the budget is untouched, which is every query of a store smaller than the budget.
 */
export const DEFAULT_KEYWORD_BUDGET = 5_000;

/** Which query terms a keyword search matches on, and which it leaves to the re-rank. */
export interface TermPlan {
  /** Terms the MATCH ranks on, in query order. */
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
 * Splits `terms` by the entries each matches (looked up in the index's vocabulary: O(log n) per
 * term whatever its frequency). Only plain words can be measured, by the stem FTS5 stored; a
 * phrase, a CJK run or a word the vocabulary does not hold costs nothing here, so the plan can
 * only leave a term in the query, never drop one it cannot measure. The rarest term always stays.
 */
export function planTerms(
  statements: StatementCache,
  terms: readonly string[],
  budget = DEFAULT_KEYWORD_BUDGET,
): TermPlan {
  // Rowids never exceed the highest one: a store that small ranks fewer matches than the budget
  // whatever its terms, and needs no vocabulary lookups.
  const newestRowid = (statements.get("SELECT max(rid) FROM memories").pluck().get() as number | null) ?? 0;
  const all = { kept: [...terms], dropped: [], overBudget: false, newestRowid, matchesAtMost: newestRowid };
  if (budget <= 0 || newestRowid <= budget) return all;
  const documents = termDocuments(statements, terms, newestRowid);
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
 * Entries per measurable term (absent: not measurable, or in no entry). A vocabulary lookup costs
 * ~12 µs a term, ~9 % of a recall at 10k entries, so each connection remembers what it read until
 * the store has grown by STALE_ROWS or STALE_SHARE since (a plan needs only the order of magnitude;
 * deletions leave a count high, which can only keep a term in the MATCH longer).
 */
function termDocuments(
  statements: StatementCache,
  terms: readonly string[],
  newestRowid: number,
): Map<string, number> {
  ensureVocabulary(statements);
  const lookup = statements.get("SELECT doc FROM temp.claw_fts_terms WHERE term = ?").pluck();
  let known = counted.get(statements);
  if (known === undefined) {
    known = new Map();
    counted.set(statements, known);
  }
  const documents = new Map<string, number>();
  for (const term of terms) {
    if (!/^[a-z0-9]+$/.test(term)) continue;
    const stem = porterStem(term);
    let entry = known.get(stem);
    if (entry === undefined || newestRowid - entry.at > Math.max(STALE_ROWS, entry.at * STALE_SHARE)) {
      if (known.size >= COUNTED_MAX) known.clear();
      entry = { doc: (lookup.get(stem) as number | undefined) ?? 0, at: newestRowid };
      known.set(stem, entry);
    }
    if (entry.doc > 0) documents.set(term, entry.doc);
  }
  return documents;
}

/** Growth of the store after which a remembered count is read again. */
const STALE_ROWS = 1_000;
const STALE_SHARE = 0.1;
/** Stems remembered per connection. */
const COUNTED_MAX = 10_000;
const counted = new WeakMap<StatementCache, Map<string, { doc: number; at: number }>>();

const vocabularies = new WeakSet<StatementCache>();

/**
 * The vocabulary of memories_fts as a temp fts5vocab table of this connection: nothing is written
 * to the database file, so read-only connections (recall workers) have one too.
 */
function ensureVocabulary(statements: StatementCache): void {
  if (vocabularies.has(statements)) return;
  statements
    .get("CREATE VIRTUAL TABLE IF NOT EXISTS temp.claw_fts_terms USING fts5vocab(main, memories_fts, row)")
    .run();
  vocabularies.add(statements);
}
