import { MemoryError } from "@claw/memory-api";
import { collectQueryTerms } from "./query-terms.js";
import { cjkBigrams, isCjkChar } from "./tokenizer.js";

export interface FtsQueryOptions {
  /** Match Latin terms of 3+ characters as prefixes ("deploy" also finds "deployed"). */
  prefix?: boolean;
  /** Keep at most this many terms, the first ones in the query. Default 24. */
  maxTerms?: number;
}

export const DEFAULT_MAX_FTS_TERMS = 24;

const MIN_PREFIX_CHARS = 3;

/** CJK runs up to this length are searched as a phrase, longer ones by their bigrams. */
const MAX_PHRASE_CJK_CHARS = 4;

/**
 * The unique search terms of `query` that buildFtsQuery would use, in query order: tokens without
 * stop words (or only stop words when nothing else is left), CJK runs whole, at most `maxTerms`.
 * Lets a caller measure how many of the query's terms a hit covers.
 */
export function ftsTermsOf(query: string, options: Pick<FtsQueryOptions, "maxTerms"> = {}): string[] {
  return collectQueryTerms(query, options.maxTerms ?? DEFAULT_MAX_FTS_TERMS, "maxTerms");
}

/**
 * A SQLite FTS5 MATCH expression for free user text, or null when nothing searchable remains.
 * No user text can act as FTS5 syntax: every term is a double-quoted string, and the tokenizer
 * has already dropped operators' punctuation, so AND/OR/NOT/NEAR, column filters and `*` in the
 * input are plain words or nothing; NUL and other control characters are separators and never
 * reach the expression. Terms are OR-ed so that any overlap ranks, and BM25 orders them.
 */
export function buildFtsQuery(query: string, options: FtsQueryOptions = {}): string | null {
  const prefix = options.prefix ?? false;
  if (typeof prefix !== "boolean") {
    throw MemoryError.invalidInput("prefix", `must be a boolean, got ${typeof prefix}`);
  }
  const terms = ftsTermsOf(query, options);
  if (terms.length === 0) return null;
  return terms.map((term) => ftsTermExpression(term, prefix)).join(" OR ");
}

/** One query term's FTS5 expression (quoted, a long CJK run as OR-ed bigrams); buildFtsQuery ORs them. */
export function ftsTermExpression(term: string, prefix: boolean): string {
  const chars = Array.from(term);
  if (chars.every(isCjkChar)) {
    // The index holds CJK as bigrams (toFtsIndexText): a run is the phrase of its consecutive
    // bigrams, and a lone character can only be found as the start of a bigram.
    if (chars.length === 1) return `${quote(term)}*`;
    // A short run is a word or two: match it as a phrase. A longer run is a sentence whose exact
    // wording is unlikely to recur, so its bigrams are OR-ed and BM25 ranks by overlap.
    if (chars.length <= MAX_PHRASE_CJK_CHARS) return quote(cjkBigrams(term).join(" "));
    return [...new Set(cjkBigrams(term))].map(quote).join(" OR ");
  }
  // An apostrophe splits the term into a phrase in FTS5 ("don" "t"); a prefix would then apply
  // to the "t" alone, so such terms stay exact.
  const wantsPrefix = prefix && chars.length >= MIN_PREFIX_CHARS && !term.includes("'");
  return wantsPrefix ? `${quote(term)}*` : quote(term);
}

/** FTS5 string literal: double quotes, with internal double quotes doubled. */
function quote(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}
