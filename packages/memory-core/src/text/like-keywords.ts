import { collectQueryTerms } from "./query-terms.js";

export const DEFAULT_MAX_LIKE_KEYWORDS = 8;

/**
 * Keywords for the LIKE fallback used when FTS5 finds nothing or is unavailable: unique tokens of
 * `query` in query order without stop words (or only stop words when nothing else is left), CJK
 * runs whole (LIKE matches substrings, so no bigrams are needed), at most `max`.
 */
export function extractLikeKeywords(query: string, max: number = DEFAULT_MAX_LIKE_KEYWORDS): string[] {
  return collectQueryTerms(query, max, "max");
}

/** Escapes LIKE wildcards and the escape character itself, for `LIKE ? ESCAPE '\'`. */
export function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, "\\$&");
}

/** A `LIKE ? ESCAPE '\'` pattern matching `term` anywhere in the text. */
export function likePattern(term: string): string {
  return `%${escapeLike(term)}%`;
}
