import { MemoryError } from "@claw/memory-api";

/**
 * Cosine similarity of two equal-length vectors. A zero vector has no direction, so its
 * similarity to anything is defined as 0 rather than NaN (which would poison sorting).
 */
export function cosineSimilarity(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) {
    throw MemoryError.invalidInput(
      "embedding",
      `dimension mismatch: ${a.length} vs ${b.length} (was the embedding model changed?)`,
    );
  }
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    dot += x * y;
    normA += x * x;
    normB += y * y;
  }
  if (normA === 0 || normB === 0) return 0;
  return dot / (Math.sqrt(normA) * Math.sqrt(normB));
}

/** Unit-length copy of `v`; the zero vector stays zero because it has no direction to keep. */
export function l2Normalize(v: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < v.length; i++) {
    const x = v[i] as number;
    sum += x * x;
  }
  const out = new Float32Array(v.length);
  if (sum === 0) return out;
  const inv = 1 / Math.sqrt(sum);
  for (let i = 0; i < v.length; i++) out[i] = (v[i] as number) * inv;
  return out;
}

/**
 * Serialises a vector as little-endian float32, the layout sqlite-vec expects. DataView is used
 * instead of the array's own buffer so the stored bytes do not depend on the host's endianness.
 */
export function float32ToBlob(v: Float32Array): Buffer {
  const out = Buffer.alloc(v.length * 4);
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  for (let i = 0; i < v.length; i++) view.setFloat32(i * 4, v[i] as number, true);
  return out;
}

/**
 * Decodes a little-endian float32 blob into a fresh array. Copies through DataView because
 * blobs from SQLite may sit at an unaligned byteOffset inside a shared pool buffer, where a
 * Float32Array view would throw (and would alias memory the driver may reuse).
 */
export function blobToFloat32(blob: Uint8Array): Float32Array {
  if (blob.byteLength % 4 !== 0) {
    throw MemoryError.invalidInput(
      "embedding",
      `blob length ${blob.byteLength} is not a multiple of 4 bytes`,
    );
  }
  const view = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  const out = new Float32Array(blob.byteLength / 4);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}
