import { isMemoryError } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { blobToFloat32, cosineSimilarity, float32ToBlob, l2Normalize } from "./vector-math.js";

describe("cosineSimilarity", () => {
  it("is 1 for parallel, 0 for orthogonal and -1 for opposite vectors", () => {
    const a = new Float32Array([1, 2, 3]);
    expect(cosineSimilarity(a, new Float32Array([2, 4, 6]))).toBeCloseTo(1, 6);
    expect(cosineSimilarity(new Float32Array([1, 0]), new Float32Array([0, 5]))).toBe(0);
    expect(cosineSimilarity(a, new Float32Array([-1, -2, -3]))).toBeCloseTo(-1, 6);
  });

  it("computes the exact angle between non-trivial vectors", () => {
    // (1,1)·(1,0) / (√2 · 1) = 1/√2
    expect(cosineSimilarity(new Float32Array([1, 1]), new Float32Array([1, 0]))).toBeCloseTo(Math.SQRT1_2, 7);
  });

  it("returns 0 instead of NaN when either vector has zero norm", () => {
    const zero = new Float32Array(3);
    expect(cosineSimilarity(zero, new Float32Array([1, 2, 3]))).toBe(0);
    expect(cosineSimilarity(new Float32Array([1, 2, 3]), zero)).toBe(0);
    expect(cosineSimilarity(zero, zero)).toBe(0);
  });

  it("rejects vectors of different lengths as INVALID_INPUT on 'embedding'", () => {
    let caught: unknown;
    try {
      cosineSimilarity(new Float32Array(3), new Float32Array(4));
    } catch (err) {
      caught = err;
    }
    expect(isMemoryError(caught, "INVALID_INPUT")).toBe(true);
    expect((caught as { field?: string }).field).toBe("embedding");
  });
});

describe("l2Normalize", () => {
  it("returns a new unit-length array and leaves the input untouched", () => {
    const v = new Float32Array([3, 4]);
    const n = l2Normalize(v);
    expect(n).not.toBe(v);
    expect(Array.from(n)).toEqual([Math.fround(0.6), Math.fround(0.8)]);
    expect(Array.from(v)).toEqual([3, 4]);
  });

  it("keeps the zero vector zero (as a copy)", () => {
    const zero = new Float32Array(2);
    const n = l2Normalize(zero);
    expect(n).not.toBe(zero);
    expect(Array.from(n)).toEqual([0, 0]);
  });
});

describe("float32ToBlob / blobToFloat32", () => {
  it("writes little-endian float32 regardless of host byte order", () => {
    expect(Array.from(float32ToBlob(new Float32Array([1])))).toEqual([0x00, 0x00, 0x80, 0x3f]);
    expect(Array.from(float32ToBlob(new Float32Array([-2])))).toEqual([0x00, 0x00, 0x00, 0xc0]);
  });

  it("round-trips values exactly, including special values", () => {
    const v = new Float32Array([0, -0, 1.5, -3.25, Math.fround(0.1), 3.4e38, Number.POSITIVE_INFINITY]);
    const back = blobToFloat32(float32ToBlob(v));
    expect(Array.from(back)).toEqual(Array.from(v));
    expect(Object.is(back[1], -0)).toBe(true);
  });

  it("decodes from a Buffer that starts at an odd byteOffset of a shared buffer", () => {
    const blob = float32ToBlob(new Float32Array([1, -2, 0.5]));
    const pool = Buffer.alloc(blob.length + 3);
    blob.copy(pool, 1);
    const unaligned = pool.subarray(1, 1 + blob.length);
    expect(unaligned.byteOffset % 4).not.toBe(0);
    const back = blobToFloat32(unaligned);
    expect(Array.from(back)).toEqual([1, -2, 0.5]);
    // A copy: mutating the source after decoding does not change the result.
    pool.fill(0);
    expect(Array.from(back)).toEqual([1, -2, 0.5]);
  });

  it("decodes an empty blob to an empty vector", () => {
    expect(blobToFloat32(new Uint8Array(0)).length).toBe(0);
    expect(float32ToBlob(new Float32Array(0)).length).toBe(0);
  });

  it("rejects a blob whose length is not a multiple of 4", () => {
    expect(() => blobToFloat32(new Uint8Array(6))).toThrowError(/multiple of 4/);
    try {
      blobToFloat32(new Uint8Array(5));
      expect.unreachable();
    } catch (err) {
      expect(isMemoryError(err, "INVALID_INPUT")).toBe(true);
    }
  });
});
