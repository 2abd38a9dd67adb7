/**
 * The baseline every vector figure is read against: an exact cosine scan over one Float32Array in
 * JavaScript. Its answers are also the ground truth for recall@10.
 */

/** Nearest-neighbour search over the corpus; answers are corpus indexes, best first. */
export interface VectorSearchEngine {
  search(query: Float32Array, k: number): number[];
}

/**
 * Keeps the k best (score, index) pairs in descending order; ties go to the lower index so that
 * the exact answer is one well-defined list.
 */
export class TopK {
  readonly scores: Float64Array;
  readonly indexes: Int32Array;
  private count = 0;

  constructor(readonly k: number) {
    this.scores = new Float64Array(k).fill(Number.NEGATIVE_INFINITY);
    this.indexes = new Int32Array(k).fill(-1);
  }

  /** The score a candidate must beat to enter. */
  get floor(): number {
    return this.count < this.k ? Number.NEGATIVE_INFINITY : (this.scores[this.k - 1] as number);
  }

  offer(score: number, index: number): void {
    if (this.k === 0 || (this.count === this.k && score <= (this.scores[this.k - 1] as number))) return;
    let at = Math.min(this.count, this.k - 1);
    while (at > 0 && (this.scores[at - 1] as number) < score) {
      this.scores[at] = this.scores[at - 1] as number;
      this.indexes[at] = this.indexes[at - 1] as number;
      at--;
    }
    this.scores[at] = score;
    this.indexes[at] = index;
    if (this.count < this.k) this.count++;
  }

  toArray(): number[] {
    return Array.from(this.indexes.subarray(0, this.count));
  }
}

export interface JsScanEngine extends VectorSearchEngine {
  /** Cosine of `query` to row `index`. */
  similarity(query: Float32Array, index: number): number;
}

/** Cosine against every row of `matrix` (row-major, `dimensions` wide). */
export function createJsScan(matrix: Float32Array, dimensions: number): JsScanEngine {
  const rows = Math.floor(matrix.length / dimensions);
  // Norms once, as any real scan would cache them; the corpus vectors are unit length anyway.
  const inverseNorms = new Float64Array(rows);
  for (let r = 0; r < rows; r++) {
    let sum = 0;
    for (let d = r * dimensions, end = d + dimensions; d < end; d++) sum += (matrix[d] as number) ** 2;
    inverseNorms[r] = sum === 0 ? 0 : 1 / Math.sqrt(sum);
  }
  const inverseNormOf = (query: Float32Array) => {
    let queryNorm = 0;
    for (let d = 0; d < dimensions; d++) queryNorm += (query[d] as number) ** 2;
    return queryNorm === 0 ? 0 : 1 / Math.sqrt(queryNorm);
  };
  return {
    similarity(query, index) {
      let dot = 0;
      const base = index * dimensions;
      for (let d = 0; d < dimensions; d++) dot += (query[d] as number) * (matrix[base + d] as number);
      return dot * inverseNormOf(query) * (inverseNorms[index] ?? 0);
    },
    search(query, k) {
      const inverseQuery = inverseNormOf(query);
      const best = new TopK(k);
      for (let r = 0, base = 0; r < rows; r++, base += dimensions) {
        let dot = 0;
        for (let d = 0; d < dimensions; d++) dot += (query[d] as number) * (matrix[base + d] as number);
        const similarity = dot * inverseQuery * (inverseNorms[r] as number);
        if (similarity > best.floor) best.offer(similarity, r);
      }
      return best.toArray();
    },
  };
}

/** Share of `exact` found in `found` (both top-k lists of corpus indexes). */
export function overlapAt(found: readonly number[], exact: readonly number[]): number {
  if (exact.length === 0) return 1;
  const wanted = new Set(exact);
  return found.filter((i) => wanted.has(i)).length / exact.length;
}

/**
 * Like overlapAt, but with ties at the cut-off: bag-of-words vectors tie often there (same
 * overlap, same length), and which of the tied entries an engine returns is arbitrary, not a miss.
 * The exact hits above the k-th's similarity must be found themselves; the places of the exact
 * hits tied with it (within `tolerance`) may be taken by any entry as similar. `similarityOf`
 * gives the exact cosine of a corpus index to the query.
 */
export function overlapWithTies(
  found: readonly number[],
  exact: readonly number[],
  similarityOf: (index: number) => number,
  tolerance = 1e-6,
): number {
  if (exact.length === 0) return 1;
  const cutoff = similarityOf(exact[exact.length - 1] as number);
  const above = new Set(exact.filter((i) => similarityOf(i) > cutoff + tolerance));
  const foundAbove = found.filter((i) => above.has(i)).length;
  const foundTied = found.filter((i) => !above.has(i) && similarityOf(i) >= cutoff - tolerance).length;
  return (foundAbove + Math.min(foundTied, exact.length - above.size)) / exact.length;
}
