/**
 * One score scale for every search mode, in (0, 1]:
 *
 *   score = ½ × coverage^1.5 + ½ × strength
 *
 * - `coverage` is the share of the query's terms the entry contains (whole words, by stem):
 *   an entry with every term has coverage 1 and so scores at least 0.5 whatever the store size
 *   (BM25's magnitude, by contrast, falls towards 0 when every term is common, ~1e-6 in a
 *   2-entry store);
 * - `strength` in [0, 1] is how strongly the mode's ranked lists put the entry forward: its BM25
 *   relative to the best keyword hit, its cosine relative to the best vector hit, or both fused.
 *
 * So a partial match scores below a full one of the same strength, the best full match scores 1,
 * and `minScore` means the same in bm25, embedding and hybrid mode (0.5: "has every term, or is
 * about as strong as the best hit while missing few"). Recency then scales the score.
 */
export const COVERAGE_EXPONENT = 1.5;

/** The lowest score an entry returned by ranked search can have: scores stay above 0. */
export const MIN_SCORE = 1e-6;

export function calibratedScore(coverage: number, strength: number): number {
  const c = clampUnit(coverage);
  const s = clampUnit(strength);
  return Math.max(MIN_SCORE, 0.5 * c ** COVERAGE_EXPONENT + 0.5 * s);
}

/** Each value divided by the largest (all 0 when none is positive). */
export function relativeToBest(values: readonly number[]): number[] {
  let best = 0;
  for (const v of values) if (Number.isFinite(v) && v > best) best = v;
  return values.map((v) => (best > 0 && Number.isFinite(v) ? clampUnit(v / best) : 0));
}

/** The least spread of cosines treated as telling hits apart (see relativeCosines). */
const MIN_COSINE_SPREAD = 0.2;

/**
 * Cosines rescaled so the best hit is 1 and the worst hit of the list 0. Raw cosines have no
 * common scale across embedders (unrelated texts sit near 0 for one model and near 0.7 for
 * another); their spread within one result list is what tells the hits apart. A short list (a
 * small store) is compared with a spread of at least 0.2 below its best, so that two close
 * hits are not set at the two ends of the scale.
 */
export function relativeCosines(similarities: readonly number[]): number[] {
  const finite = similarities.filter(Number.isFinite);
  if (finite.length === 0) return similarities.map(() => 0);
  const best = Math.max(...finite);
  const worst = Math.min(...finite, best - MIN_COSINE_SPREAD);
  return similarities.map((v) => (Number.isFinite(v) ? clampUnit((v - worst) / (best - worst)) : 0));
}

export function clampUnit(value: number): number {
  if (!Number.isFinite(value) || value <= 0) return 0;
  return Math.min(1, value);
}
