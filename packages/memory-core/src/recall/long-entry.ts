import { PASSAGE_WORDS, wordCount } from "../text/word-count.js";

/**
 * What a long entry keeps of its keyword score: 1 up to one passage (PASSAGE_WORDS words), then
 * (PASSAGE_WORDS / words)^exponent, so a 400-word entry keeps (1/4)^0.5 = 0.5 at the default.
 *
 * BM25 sums its terms' scores, and its length normalisation is tuned for documents of about the
 * same length: a long answer, note or document holds many of a question's words, several times,
 * and outranks the short message that is about it. Term coverage is already measured within one
 * passage; this scales the BM25 too, before the keyword and vector lists are fused. Entries of a
 * passage or less (every LoCoMo turn, most facts and preferences an agent stores) are untouched,
 * and coverage is not scaled, so an entry holding every query term still scores at least 0.5
 * whatever its length. BEAM dev (long user/assistant messages), keyword recall@10: 0.452 → 0.513
 * stored as core, 0.442 → 0.492 as conversation; exponent 0.35 / 0.7 / 1: 0.490 / 0.510 / 0.508
 * as core. LoCoMo unchanged (0.720).
 */
export function lengthFactorOf(exponent: number): (row: { content: string }) => number {
  if (exponent <= 0) return () => 1;
  return (row) => {
    const words = wordsOf(row);
    return words <= PASSAGE_WORDS ? 1 : (PASSAGE_WORDS / words) ** exponent;
  };
}

/** Words per row object: recall scores the same cached rows again and again. */
const counted = new WeakMap<object, number>();

/** Its words (0 for a content too short to hold more than a passage). */
export function wordsOf(row: { content: string }): number {
  let words = counted.get(row);
  if (words === undefined) {
    // Fewer than 2 × PASSAGE_WORDS characters cannot hold more than a passage.
    words = row.content.length < 2 * PASSAGE_WORDS ? 0 : wordCount(row.content);
    counted.set(row, words);
  }
  return words;
}
