import { MemoryError } from "@claw/memory-api";

export interface MmrOptions<T> {
  /** Trade-off in [0,1]: 1 = pure relevance, 0 = pure diversity. */
  lambda: number;
  /** Maximum number of items returned. */
  limit: number;
  /** Relevance of an item; higher is better. */
  score: (item: T) => number;
  /** Similarity of two items, typically cosine in [-1,1]. */
  similarity: (a: T, b: T) => number;
}

interface Candidate<T> {
  item: T;
  relevance: number;
  /** Highest similarity to anything already picked; kept incrementally so each round is O(n). */
  maxSimilarity: number;
}

/**
 * Maximal Marginal Relevance (Carbonell & Goldstein, 1998): greedily picks the item maximising
 * λ·relevance − (1−λ)·max similarity to the items already picked, so a near-duplicate of a
 * pick loses to a slightly less relevant but different item.
 *
 * Relevance is the score divided by the batch maximum, putting it on the same [0,1] scale as
 * similarity whatever the scorer's range. Candidates are pre-sorted by score (stable) and ties
 * go to the earlier candidate, so λ = 1 returns exactly the input ordered by score.
 */
export function mmrRerank<T>(items: ReadonlyArray<T>, options: MmrOptions<T>): T[] {
  const { lambda, limit, score, similarity } = options;
  if (!Number.isFinite(lambda) || lambda < 0 || lambda > 1) {
    throw MemoryError.invalidInput("lambda", `must be within [0, 1], got ${lambda}`);
  }
  if (!Number.isInteger(limit) || limit < 0) {
    throw MemoryError.invalidInput("limit", `must be an integer >= 0, got ${limit}`);
  }

  const scored = items.map((item, index) => ({ item, index, raw: finiteOrZero(score(item)) }));
  scored.sort((x, y) => y.raw - x.raw || x.index - y.index);
  let maxScore = 0;
  for (const s of scored) if (s.raw > maxScore) maxScore = s.raw;

  const candidates: Candidate<T>[] = scored.map((s) => ({
    item: s.item,
    relevance: maxScore > 0 ? Math.max(0, s.raw / maxScore) : 0,
    maxSimilarity: Number.NEGATIVE_INFINITY,
  }));

  const picked: T[] = [];
  while (picked.length < limit && candidates.length > 0) {
    let bestIndex = 0;
    let bestValue = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < candidates.length; i++) {
      const c = candidates[i] as Candidate<T>;
      // Nothing picked yet means no redundancy to penalise, not an infinitely negative one.
      const redundancy = picked.length === 0 ? 0 : c.maxSimilarity;
      const value = lambda * c.relevance - (1 - lambda) * redundancy;
      if (value > bestValue) {
        bestValue = value;
        bestIndex = i;
      }
    }
    const [chosen] = candidates.splice(bestIndex, 1);
    if (chosen === undefined) break;
    picked.push(chosen.item);
    for (const c of candidates) {
      const sim = finiteOrZero(similarity(c.item, chosen.item));
      if (sim > c.maxSimilarity) c.maxSimilarity = sim;
    }
  }
  return picked;
}

function finiteOrZero(value: number): number {
  return Number.isFinite(value) ? value : 0;
}
