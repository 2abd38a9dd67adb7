import { isStopWord } from "@claw/memory-core";

const K1 = 1.2;
const B = 0.75;

/**
 * How well each text, taken as a BM25 query, matches the other, relative to how it matches
 * itself; the mean of both directions, in 0..1. Term weights are BM25's saturated term frequency
 * with length normalisation over the pair (there is no corpus to take IDF from, so stop words are
 * dropped instead). `a` and `b` are whole-word tokens.
 */
export function bm25Overlap(a: readonly string[], b: readonly string[]): number {
  const termsA = a.filter((t) => !isStopWord(t));
  const termsB = b.filter((t) => !isStopWord(t));
  if (termsA.length === 0 || termsB.length === 0) return 0;
  const avgLength = (termsA.length + termsB.length) / 2;
  const freqA = frequencies(termsA);
  const freqB = frequencies(termsB);
  const aToB = score(freqA, freqB, termsB.length, avgLength) / score(freqA, freqA, termsA.length, avgLength);
  const bToA = score(freqB, freqA, termsA.length, avgLength) / score(freqB, freqB, termsB.length, avgLength);
  return Math.min(1, (aToB + bToA) / 2);
}

function frequencies(terms: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
  return counts;
}

function score(
  query: ReadonlyMap<string, number>,
  doc: ReadonlyMap<string, number>,
  docLength: number,
  avgLength: number,
): number {
  let total = 0;
  for (const term of query.keys()) {
    const tf = doc.get(term) ?? 0;
    total += (tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * docLength) / avgLength));
  }
  return total;
}
