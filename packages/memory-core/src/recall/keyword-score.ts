/**
 * SQLite FTS5's bm25() is negative, more negative meaning a better match. Recall works with
 * "higher is better" scores, so the magnitude is returned. A finite positive or zero value
 * would mean "no evidence" (and NaN/Infinity a broken rank), so those map to 0 rather than
 * leaking a sign flip or a non-finite number into sorting.
 */
export function bm25ToScore(bm25: number): number {
  if (!Number.isFinite(bm25) || bm25 >= 0) return 0;
  return -bm25;
}

/**
 * Absolute keyword strength in [0, 1): score / (1 + score), monotonic in the BM25 magnitude.
 *
 * This is the "normalised BM25" the early-return rule compares with its 0.85 threshold
 * (skip the embedding call when the keyword hit is already decisive). It deliberately does
 * not divide by the batch maximum, as the weighted merge does for ranking: that would make the
 * top hit of every batch exactly 1, so the threshold would pass for any query with at least one
 * match, however weak. A saturating transform keeps strength tied to how good the match
 * actually is (0.85 needs a magnitude of about 5.67). Non-finite or non-positive input
 * counts as no strength, mirroring bm25ToScore.
 */
export function strengthOf(score: number): number {
  if (!Number.isFinite(score) || score <= 0) return 0;
  return score / (1 + score);
}
