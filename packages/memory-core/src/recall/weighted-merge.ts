import { MemoryError } from "@claw/memory-api";
import { compareScores, type RankedId } from "./rrf-merge.js";

export interface MergeWeights {
  vectorWeight: number;
  keywordWeight: number;
}

interface Accumulator {
  vector: number;
  keyword: number;
  firstSeen: number;
}

/**
 * Linear fusion of vector and keyword hits: vectorWeight·v + keywordWeight·kwNorm.
 *
 * Keyword scores (positive BM25 magnitudes) are unbounded, so they are divided by the batch
 * maximum to share the [0,1] scale of the cosine side; cosine is clamped because negative
 * similarity means "unrelated", not "anti-relevant", and must not cancel a keyword hit.
 * An id missing from one side contributes 0 there. If an id is listed twice on one side,
 * its best score is kept. Ties keep the order ids were first met (vector hits, then keyword),
 * so equal inputs always produce equal output.
 */
export function weightedMerge(
  vector: ReadonlyArray<RankedId>,
  keyword: ReadonlyArray<RankedId>,
  weights: MergeWeights,
): RankedId[] {
  validateWeight("vectorWeight", weights.vectorWeight);
  validateWeight("keywordWeight", weights.keywordWeight);

  let keywordMax = 0;
  for (const hit of keyword) {
    if (Number.isFinite(hit.score) && hit.score > keywordMax) keywordMax = hit.score;
  }

  const acc = new Map<string, Accumulator>();
  let seen = 0;
  const entryFor = (id: string): Accumulator => {
    let entry = acc.get(id);
    if (entry === undefined) {
      entry = { vector: 0, keyword: 0, firstSeen: seen++ };
      acc.set(id, entry);
    }
    return entry;
  };

  for (const hit of vector) {
    const entry = entryFor(hit.id);
    entry.vector = Math.max(entry.vector, clampUnit(hit.score));
  }
  for (const hit of keyword) {
    const entry = entryFor(hit.id);
    const normalised = keywordMax > 0 ? clampUnit(hit.score / keywordMax) : 0;
    entry.keyword = Math.max(entry.keyword, normalised);
  }

  return [...acc.entries()]
    .map(([id, entry]) => ({
      id,
      score: weights.vectorWeight * entry.vector + weights.keywordWeight * entry.keyword,
      firstSeen: entry.firstSeen,
    }))
    .sort((x, y) => compareScores(x.score, y.score) || x.firstSeen - y.firstSeen)
    .map(({ id, score }) => ({ id, score }));
}

function validateWeight(field: string, value: number): void {
  if (!Number.isFinite(value) || value < 0) {
    throw MemoryError.invalidInput(field, `must be a finite number >= 0, got ${value}`);
  }
}

/** NaN and negative scores carry no evidence of relevance, so they count as 0. */
function clampUnit(value: number): number {
  if (!Number.isFinite(value) || value <= 0) return 0;
  return Math.min(value, 1);
}
