// Sentence vectors from a model's token states: CLS or attention-masked mean, then L2 normalisation.
import type { Pooling } from "./model-files.js";

/**
 * `hidden` is [rows, columns, dims] row-major; `mask` is [rows, columns] with 1 for real tokens.
 * Padded positions never count: real encoders emit non-zero states there.
 */
export function poolTokenStates(
  hidden: Float32Array,
  mask: BigInt64Array,
  shape: { rows: number; columns: number; dims: number },
  pooling: Pooling,
): Float32Array[] {
  const { rows, columns, dims } = shape;
  const vectors: Float32Array[] = [];
  for (let r = 0; r < rows; r++) {
    const vector = new Float32Array(dims);
    if (pooling === "cls") {
      vector.set(hidden.subarray(r * columns * dims, r * columns * dims + dims));
    } else {
      // Sums in float64: long inputs would otherwise lose precision in float32.
      const sum = new Float64Array(dims);
      let count = 0;
      for (let c = 0; c < columns; c++) {
        if (mask[r * columns + c] === 0n) continue;
        const offset = (r * columns + c) * dims;
        for (let d = 0; d < dims; d++) sum[d]! += hidden[offset + d]!;
        count++;
      }
      for (let d = 0; d < dims; d++) vector[d] = count === 0 ? 0 : sum[d]! / count;
    }
    vectors.push(normalize(vector));
  }
  return vectors;
}

/** Rows of an already pooled [rows, dims] output. */
export function splitPooled(data: Float32Array, rows: number, dims: number): Float32Array[] {
  const vectors: Float32Array[] = [];
  for (let r = 0; r < rows; r++) vectors.push(normalize(data.slice(r * dims, (r + 1) * dims)));
  return vectors;
}

/** In place; a zero vector stays zero rather than becoming NaN. */
export function normalize(vector: Float32Array): Float32Array {
  let norm = 0;
  for (const value of vector) norm += value * value;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < vector.length; i++) vector[i]! /= norm;
  return vector;
}
