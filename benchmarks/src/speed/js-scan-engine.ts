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

/** Cosine against every row of `matrix` (row-major, `dimensions` wide). */
export function createJsScan(matrix: Float32Array, dimensions: number): VectorSearchEngine {
  const rows = Math.floor(matrix.length / dimensions);
  // Norms once, as any real scan would cache them; the corpus vectors are unit length anyway.
  const inverseNorms = new Float64Array(rows);
  for (let r = 0; r < rows; r++) {
    let sum = 0;
    for (let d = r * dimensions, end = d + dimensions; d < end; d++) sum += (matrix[d] as number) ** 2;
    inverseNorms[r] = sum === 0 ? 0 : 1 / Math.sqrt(sum);
  }
  return {
    search(query, k) {
      let queryNorm = 0;
      for (let d = 0; d < dimensions; d++) queryNorm += (query[d] as number) ** 2;
      const inverseQuery = queryNorm === 0 ? 0 : 1 / Math.sqrt(queryNorm);
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
