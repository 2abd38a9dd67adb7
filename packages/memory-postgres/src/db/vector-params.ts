// Vectors as statement parameters in binary: a Buffer parameter goes to the server as bytes (pg's
// Bind message marks it binary), read by the float4 array's own receive function. A vector as
// decimal text was ~20 kB and 0.2–0.27 ms of Node's time to write at 1,536 dims, and the server
// parsed each number back; in binary it is 12 kB written in microseconds.

import { float4ArrayBytes, float4ArrayInto } from "./copy-binary.js";

/** One vector as a `$n::real[]` parameter. */
export function vectorParam(vector: Float32Array): Buffer {
  return vectorsParam([vector]).flat;
}

/**
 * Many vectors as one `$n::real[]` parameter, end to end, with each one's bounds in it (1-based,
 * inclusive): row i reads `($n::real[])[first[i]:last[i]]`, a slice, which the server copies
 * without reading its elements one by one (and numbers from 1 again).
 */
export function vectorsParam(vectors: readonly Float32Array[]): {
  flat: Buffer;
  first: number[];
  last: number[];
} {
  const first: number[] = [];
  const last: number[] = [];
  let count = 0;
  for (const vector of vectors) {
    first.push(count + 1);
    count += vector.length;
    last.push(count);
  }
  const flat = Buffer.allocUnsafe(float4ArrayBytes(count));
  float4ArrayInto(new DataView(flat.buffer, flat.byteOffset, flat.byteLength), 0, vectors, count);
  return { flat, first, last };
}

/**
 * One vector as a parameter of pgvector's `vector` type in its binary form (vector_recv's: the
 * dimension count and a reserved zero as 16-bit integers, then each float big-endian): the
 * query vector of a search, parsed once by the server. 6 kB at 1,536 dims against ~20 kB of text,
 * written in microseconds instead of ~0.25 ms. (As a `real[]` cast to `vector` in the statement,
 * a generic plan casts it again for every row an exact scan reads.)
 */
export function pgvectorParam(vector: Float32Array): Buffer {
  const bytes = Buffer.allocUnsafe(4 + vector.length * 4);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  view.setInt16(0, vector.length);
  view.setInt16(2, 0);
  for (let i = 0; i < vector.length; i++) view.setFloat32(4 + i * 4, vector[i] as number);
  return bytes;
}
