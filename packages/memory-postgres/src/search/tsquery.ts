import { cjkBigrams, isCjkChar } from "@claw/memory-core";

const MIN_PREFIX_CHARS = 3;

/** CJK runs up to this length are searched as a phrase, longer ones by their bigrams. */
const MAX_PHRASE_CJK_CHARS = 4;

/**
 * A tsquery (the text to_tsquery parses) OR-ing `terms` (core's ftsTermsOf: stop words dropped, at
 * most 24). User text never acts as tsquery syntax: every term is a quoted lexeme, and the tokenizer
 * has already dropped `& | ! < > : * ( )`. CJK terms match the bigrams the index holds
 * (fts-vector.ts): a short run as a phrase of its bigrams, a long one by any of them, a lone
 * character as a prefix. Null when `terms` is empty.
 */
export function tsQueryText(terms: readonly string[], prefix = false): string | null {
  if (terms.length === 0) return null;
  return terms.map((term) => termExpression(term, prefix)).join(" | ");
}

/** One term as to_tsquery text (see tsQueryText). */
export function termExpression(term: string, prefix: boolean): string {
  const chars = Array.from(term);
  if (chars.every(isCjkChar)) {
    if (chars.length === 1) return `${lexeme(term)}:*`;
    // A quoted string with spaces is parsed into a phrase ('我喜' <-> '喜欢').
    if (chars.length <= MAX_PHRASE_CJK_CHARS) return lexeme(cjkBigrams(term).join(" "));
    return `( ${[...new Set(cjkBigrams(term))].map(lexeme).join(" | ")} )`;
  }
  // An apostrophe splits the term into a phrase ("don" <-> "t"); a prefix would then apply to the
  // "t" alone, so such terms stay exact.
  const wantsPrefix = prefix && chars.length >= MIN_PREFIX_CHARS && !term.includes("'");
  return wantsPrefix ? `${lexeme(term)}:*` : lexeme(term);
}

/** A quoted tsquery lexeme: quotes doubled, backslashes escaped. */
function lexeme(text: string): string {
  return `'${text.replace(/\\/g, "\\\\").replace(/'/g, "''")}'`;
}
