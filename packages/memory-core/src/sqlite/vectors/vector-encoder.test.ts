import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ROTATION_SEED } from "./encoding-state.js";
import { createRotation, mulberry32, rotationWidth } from "./random-rotation.js";
import { blobToEncoded, encodedToBlob, VectorEncoder } from "./vector-encoder.js";

const random = mulberry32(3);
const gaussian = (n: number) =>
  Float32Array.from(
    { length: n },
    () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random()),
  );
const dot = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let sum = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) sum += (a[i] as number) * (b[i] as number);
  return sum;
};

describe("random rotation", () => {
  it("rounds the width up to whole words and keeps inner products", () => {
    expect([4, 32, 100, 384, 768].map(rotationWidth)).toEqual([32, 32, 128, 384, 768]);
    const rotation = createRotation(384, 7);
    const [a, b] = [gaussian(384), gaussian(384)];
    const ra = rotation.apply(a, new Float64Array(384)).slice();
    const rb = rotation.apply(b, new Float64Array(384));
    expect(dot(ra, rb)).toBeCloseTo(dot(a, b), 6);
    expect(dot(ra, ra)).toBeCloseTo(dot(a, a), 6);
  });

  it("spreads a vector with one non-zero coordinate over every coordinate, the same way for a seed", () => {
    for (const dimensions of [100, 384]) {
      const width = rotationWidth(dimensions);
      const rotation = createRotation(dimensions, 7);
      let largest = 0;
      for (let i = 0; i < dimensions; i++) {
        const oneHot = new Float32Array(dimensions);
        oneHot[i] = 1;
        const spread = rotation.apply(oneHot, new Float64Array(width));
        largest = Math.max(largest, ...spread.map(Math.abs));
      }
      // As a random rotation would: a random unit vector of R^128 has its largest coordinate ≈ 0.3.
      expect(largest).toBeLessThan(dimensions === 100 ? 0.4 : 0.3);
    }
    const oneHot = new Float32Array(100);
    oneHot[99] = 1;
    const spread = [...createRotation(100, 7).apply(oneHot, new Float64Array(128))];
    expect([...createRotation(100, 7).apply(oneHot, new Float64Array(128))]).toEqual(spread);
    expect([...createRotation(100, 8).apply(oneHot, new Float64Array(128))]).not.toEqual(spread);
  });
});

describe("vector encoder", () => {
  it("estimates cosine from the codes of the residual within about 1/(4√dimensions)", () => {
    const dimensions = 256;
    const unit = (scale: number) => gaussian(dimensions).map((x) => (x * scale) / Math.sqrt(dimensions));
    // Every vector sits near the mean (length 2, residuals of length 1), as sentence embeddings do.
    const mean = unit(2);
    const near = () => unit(1).map((x, i) => x + (mean[i] as number));
    const vectors = Array.from({ length: 300 }, near);
    const query = near();
    const meanError = (encoder: VectorEncoder) => {
      const tables = encoder.query(query);
      let error = 0;
      for (const x of vectors) {
        const { code, inverseNorm, scale } = encoder.encode(x);
        let sum = 0;
        for (let byte = 0; byte < code.length * 4; byte++)
          sum += tables.table[
            byte * 256 + (((code[byte >> 2] as number) >>> ((byte & 3) * 8)) & 255)
          ] as number;
        const estimate = inverseNorm * tables.offset + scale * (2 * sum - tables.total);
        error += Math.abs(estimate - dot(query, x) / Math.sqrt(dot(x, x))) / Math.sqrt(dot(query, query));
      }
      return error / vectors.length;
    };
    const error = meanError(new VectorEncoder({ dimensions, seed: 11, basis: 300, build: "b", mean }));
    expect(error).toBeLessThan(0.02);
    expect(error).toBeGreaterThan(0);
  });

  it("stores codes with their factors, little-endian, and reads a blob at any offset", () => {
    const encoder = new VectorEncoder({
      dimensions: 40,
      seed: 1,
      basis: 0,
      build: "b",
      mean: new Float32Array(40),
    });
    const encoded = encoder.encode(gaussian(40));
    expect(encoded.code).toHaveLength(2);
    const blob = encodedToBlob(encoded);
    expect(blob.byteLength).toBe(16);
    const shifted = Buffer.concat([Buffer.alloc(1), blob]).subarray(1);
    const read = blobToEncoded(shifted, 2);
    expect([...read.code]).toEqual([...encoded.code]);
    expect(read.inverseNorm).toBeCloseTo(encoded.inverseNorm, 6);
    expect(read.scale).toBeCloseTo(encoded.scale, 6);
    // A code of the old encoding (no factors) ranks last instead of throwing.
    expect(blobToEncoded(blob.subarray(0, 8), 2).scale).toBe(0);
    // The same vector as a Float32Array or as its BLOB encodes the same.
    const vector = gaussian(40);
    const fromBlob = encoder.encode(new Uint8Array(Buffer.from(vector.buffer)));
    expect([...fromBlob.code]).toEqual([...encoder.encode(vector).code]);
  });

  it("encodes exactly as the stores' codes were built: the same bytes at 64, 100, 384 and 1,536 dims", () => {
    // Stored codes are kept across releases (a rebuild is only due when the mean grows), so a
    // faster rotation must give every bit and factor it gave before, and the same query tables.
    const digests = [64, 100, 384, 1536].map((dimensions) => {
      const seeded = mulberry32(dimensions);
      const vector = (offset: number) => Float32Array.from({ length: dimensions }, () => seeded() - offset);
      const mean = Float32Array.from({ length: dimensions }, () => seeded() * 0.2 - 0.05);
      const encoder = new VectorEncoder({ dimensions, seed: ROTATION_SEED, mean, basis: 256, build: "g" });
      const hash = createHash("sha256");
      for (let v = 0; v < 20; v++) hash.update(encodedToBlob(encoder.encode(vector(0.4))));
      const query = encoder.query(vector(0.5));
      hash.update(Buffer.from(query.table.buffer));
      return `${dimensions} ${hash.digest("hex").slice(0, 16)} ${query.total.toFixed(9)} ${query.offset.toFixed(9)}`;
    });
    expect(digests).toEqual([
      "64 81307e717222a535 0.415320973 0.098054066",
      "100 4a5c471dfa0362a6 5.287769464 0.329418940",
      "384 0c734b57923e002a -3.618168757 0.225544463",
      "1536 28dd8889822bdfa3 15.774689910 0.784552163",
    ]);
  });
});
