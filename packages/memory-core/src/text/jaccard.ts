import { cjkBigrams, isCjkChar, iterateWords } from "./tokenizer.js";

/**
 * The token set of `text` for similarity: tokenizeWords tokens, with each CJK run replaced by its
 * bigrams (a whole run would only match an identical run, hiding near-duplicates). Stop words stay:
 * the callers compare whole memories, where they carry little weight either way.
 */
export function tokenSet(text: string): Set<string> {
  const set = new Set<string>();
  for (const token of iterateWords(text)) {
    const first = token.codePointAt(0);
    if (first !== undefined && isCjkChar(String.fromCodePoint(first))) {
      for (const bigram of cjkBigrams(token)) set.add(bigram);
    } else {
      set.add(token);
    }
  }
  return set;
}

/**
 * |A ∩ B| / |A ∪ B|, in 0..1. Two empty sets give 0, not 1: texts with no tokens carry no evidence
 * of being the same memory, and MMR should not penalise them as duplicates.
 */
export function jaccardSimilarity(
  a: ReadonlySet<string> | readonly string[],
  b: ReadonlySet<string> | readonly string[],
): number {
  const setA = toSet(a);
  const setB = toSet(b);
  const [small, large] = setA.size <= setB.size ? [setA, setB] : [setB, setA];
  let shared = 0;
  for (const item of small) {
    if (large.has(item)) shared++;
  }
  const union = setA.size + setB.size - shared;
  return union === 0 ? 0 : shared / union;
}

function toSet(items: ReadonlySet<string> | readonly string[]): ReadonlySet<string> {
  return Array.isArray(items) ? new Set(items) : (items as ReadonlySet<string>);
}
