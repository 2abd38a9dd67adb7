import { MemoryError } from "@claw/memory-api";
import { isStopWord } from "./stop-words.js";
import { iterateWords } from "./tokenizer.js";

/**
 * Only the start of a query is tokenised. Real queries are far shorter; the cap bounds the work
 * (NFKC, scanning) for hostile megabyte inputs and for inputs made only of stop words or repeats,
 * where stopping after `max` unique terms never triggers.
 */
export const MAX_QUERY_SCAN_CHARS = 8192;

/**
 * First-person words are kept although they are stop words: a question asked in the first person
 * ("what deadline did I set for my launch?") is about what the user said of themselves, and they
 * said it in the first person too, whereas an assistant's long answers on the same topic are in
 * the second. BEAM dev (long user/assistant chats), keyword-only, recall@10 0.381 → 0.420 stored as
 * conversation; LoCoMo (third-person questions) unchanged. They are ranked like any other term,
 * so in a store where most entries say "I", BM25 gives them little weight. They count in term
 * coverage too, which is where the gain comes from (left out of coverage, or counted only where
 * present, BEAM fell back to 0.419 / 0.420): an entry in the third person ("The user prefers
 * TypeScript") covers "which language do I prefer?" at 2/3, so it scores below 0.5.
 */
const FIRST_PERSON: ReadonlySet<string> = new Set(["i", "me", "my"]);

/**
 * The search terms of a free-text query, in query order: unique tokens (CJK runs whole) without
 * stop words (but for FIRST_PERSON), at most `max`. A query made only of stop words keeps them,
 * so "who is it" still searches for something.
 */
export function collectQueryTerms(query: string, max: number, maxField: string): string[] {
  if (typeof query !== "string") {
    throw MemoryError.invalidInput("query", `must be a string, got ${typeof query}`);
  }
  if (!Number.isInteger(max) || max < 1) {
    throw MemoryError.invalidInput(maxField, `must be a positive integer, got ${String(max)}`);
  }
  const terms: string[] = [];
  const stopTerms: string[] = [];
  const seen = new Set<string>();
  for (const token of iterateWords(scannedPart(query))) {
    if (seen.has(token)) continue;
    seen.add(token);
    if (!isStopWord(token) || FIRST_PERSON.has(token)) {
      terms.push(token);
      if (terms.length >= max) break;
    } else if (stopTerms.length < max) {
      stopTerms.push(token);
    }
  }
  return terms.length > 0 ? terms : stopTerms;
}

/** The start of `query` that is tokenised, cut at whitespace so the last word is not a fragment. */
function scannedPart(query: string): string {
  if (query.length <= MAX_QUERY_SCAN_CHARS) return query;
  const head = query.slice(0, MAX_QUERY_SCAN_CHARS);
  // A word running across the cut would yield a fragment ("deplo") that the user never typed.
  if (!/\s/u.test(query.charAt(MAX_QUERY_SCAN_CHARS))) {
    for (let i = head.length - 1; i > 0; i--) {
      if (/\s/u.test(head.charAt(i))) return head.slice(0, i);
    }
  }
  return head;
}
