/**
 * FTS5's bm25 (fts5_aux.c), one phrase's part of an entry's score, with its constants and the
 * order of its floating-point operations, so that scores computed here equal FTS5's.
 */
export const K1 = 1.2;
export const B = 0.75;

/** A phrase's idf among `rows` entries when `hits` hold it; FTS5 floors it at 1e-6. */
export function idfOf(rows: number, hits: number): number {
  const idf = Math.log((rows - hits + 0.5) / (hits + 0.5));
  return idf <= 0 ? 1e-6 : idf;
}

/** The length normalisation of an entry of `length` tokens. */
export function lengthNorm(length: number, avgdl: number): number {
  return K1 * (1 - B + (B * length) / avgdl);
}

/** A phrase's part: f (its column-weighted count in the entry), with the entry's lengthNorm. */
export function bm25Part(idf: number, f: number, norm: number): number {
  return idf * ((f * (K1 + 1.0)) / (f + norm));
}

/** The f a part was computed from (bm25Part solved for f); exact up to rounding. */
export function frequencyOfPart(part: number, idf: number, norm: number): number {
  const ratio = part / idf;
  return (ratio * norm) / (K1 + 1.0 - ratio);
}
