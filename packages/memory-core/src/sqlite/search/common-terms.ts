import { planTermsByDocuments, type TermPlan } from "../../recall/term-plan.js";
import { porterStem } from "../../text/porter-stem.js";
import type { StatementCache } from "../schema/statement-cache.js";

/** Entries a SQLite keyword query ranks at most when it can (recall/term-plan.ts). */
export const DEFAULT_KEYWORD_BUDGET = 5_000;

/**
 * Splits `terms` by the entries each matches (looked up in the index's vocabulary: O(log n) per
 * term whatever its frequency). Only plain words can be measured, by the stem FTS5 stored; a
 * phrase, a CJK run or a word the vocabulary does not hold costs nothing here, so the plan can
 * only leave a term in the query, never drop one it cannot measure.
 */
export function planTerms(
  statements: StatementCache,
  terms: readonly string[],
  budget = DEFAULT_KEYWORD_BUDGET,
): TermPlan {
  // Rowids never exceed the highest one: a store that small ranks fewer matches than the budget
  // whatever its terms, and needs no vocabulary lookups.
  const newestRowid = (statements.get("SELECT max(rid) FROM memories").pluck().get() as number | null) ?? 0;
  if (budget <= 0 || newestRowid <= budget)
    return planTermsByDocuments(terms, new Map(), budget, newestRowid);
  return planTermsByDocuments(terms, termDocuments(statements, terms, newestRowid), budget, newestRowid);
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
