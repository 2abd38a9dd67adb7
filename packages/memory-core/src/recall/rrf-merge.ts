import { MemoryError } from "@claw/memory-api";

export interface RankedId {
  id: string;
  score: number;
}

/** The constant from Cormack et al. (2009); it damps the advantage of the very top ranks. */
export const DEFAULT_RRF_K = 60;

const SCORE_EPSILON = 1e-12;

interface Accumulator {
  score: number;
  bestRank: number;
  firstSeen: number;
}

/**
 * Reciprocal Rank Fusion: score(id) = Σ 1 / (k + rank + 1) over the lists containing the id,
 * with 0-based ranks. Only ranks matter, so lists whose raw scores live on incomparable scales
 * (cosine vs. BM25) can be fused without calibration.
 *
 * Ties are broken by the best rank an id reached in any list, then by the order in which ids
 * were first met scanning the lists in turn, so the output never depends on Map or sort quirks.
 * A repeated id inside one list counts once, at its best position, so a buggy caller cannot
 * inflate an id by listing it twice.
 */
export function rrfMerge(lists: ReadonlyArray<ReadonlyArray<string>>, k: number = DEFAULT_RRF_K): RankedId[] {
  if (!Number.isFinite(k) || k < 0) {
    throw MemoryError.invalidInput("k", `must be a finite number >= 0, got ${k}`);
  }
  const acc = new Map<string, Accumulator>();
  let seen = 0;
  for (const list of lists) {
    const inThisList = new Set<string>();
    list.forEach((id, rank) => {
      if (inThisList.has(id)) return;
      inThisList.add(id);
      const contribution = 1 / (k + rank + 1);
      const entry = acc.get(id);
      if (entry === undefined) {
        acc.set(id, { score: contribution, bestRank: rank, firstSeen: seen++ });
      } else {
        entry.score += contribution;
        if (rank < entry.bestRank) entry.bestRank = rank;
      }
    });
  }
  return [...acc.entries()]
    .sort(
      ([, x], [, y]) =>
        compareScores(x.score, y.score) || x.bestRank - y.bestRank || x.firstSeen - y.firstSeen,
    )
    .map(([id, entry]) => ({ id, score: entry.score }));
}

/**
 * Descending score order that treats sums equal up to rounding as ties: the same ranks summed
 * in a different list order can differ in the last bit, and that must not decide the order.
 */
export function compareScores(a: number, b: number): number {
  const diff = b - a;
  return Math.abs(diff) <= SCORE_EPSILON ? 0 : diff;
}
