import { describe, expect, it } from "vitest";
import { BinaryCodes } from "./binary-codes.js";
import { mulberry32 } from "./random-rotation.js";
import { encodedToBlob, VectorEncoder } from "./vector-encoder.js";

const encoder = (dimensions: number) =>
  new VectorEncoder({ dimensions, seed: 1, basis: 0, build: "test", mean: new Float32Array(dimensions) });
const v = (...xs: number[]) => Float32Array.from(xs);

describe("binary codes", () => {
  it("returns the codes with the highest estimated cosine, within a namespace when asked", () => {
    const e = encoder(4);
    const codes = new BinaryCodes(e.words);
    codes.set(1, "a", e.encode(v(1, 1, 1, 1)));
    codes.set(2, "a", e.encode(v(1, 1, 1, -1)));
    codes.set(3, "b", e.encode(v(1, 1, -1, -1)));
    codes.set(4, "a", e.encode(v(-1, -1, -1, -1)));
    const query = e.query(v(1, 1, 1, 1));
    expect(codes.nearest(query, 1)).toEqual([1]);
    expect(codes.nearest(query, 3).sort()).toEqual([1, 2, 3]);
    expect(codes.nearest(query, 2, "b")).toEqual([3]);
    expect(codes.nearest(query, 2, "missing")).toEqual([]);
    expect(codes.nearest(query, 0)).toEqual([]);
  });

  it("keeps the arrays dense across deletes and replaces a rid's code in place", () => {
    const e = encoder(4);
    const codes = new BinaryCodes(e.words);
    for (let rid = 1; rid <= 3000; rid++) codes.set(rid, "a", e.encode(v(rid % 2 ? 1 : -1, 1, 1, 1)));
    expect(codes.count).toBe(3000);
    codes.delete(1);
    codes.delete(2);
    codes.delete(2);
    expect(codes.count).toBe(2998);
    codes.set(3, "a", e.encode(v(-1, -1, -1, -1)));
    expect(codes.nearest(e.query(v(-1, -1, -1, -1)), 1)).toEqual([3]);
    expect(codes.nearest(e.query(v(1, 1, 1, 1)), 5000)).toHaveLength(2998);
  });

  it("counts the codes of each namespace through replaces, moves and deletes", () => {
    const e = encoder(4);
    const codes = new BinaryCodes(e.words);
    for (let rid = 1; rid <= 5; rid++) codes.set(rid, rid <= 3 ? "a" : "b", e.encode(v(1, 1, 1, rid)));
    codes.set(2, "a", e.encode(v(1, 1, 1, -1)));
    codes.set(3, "b", e.encode(v(1, 1, 1, -1)));
    codes.delete(4);
    codes.delete(4);
    expect([codes.countIn("a"), codes.countIn("b"), codes.countIn("missing"), codes.countIn()]).toEqual([
      2, 2, 0, 4,
    ]);
  });
});

describe("binary codes read from their stored form", () => {
  // A mean off the origin, so that both stored factors weigh in the estimate.
  const mean = new Float32Array(64).fill(0.3);
  const e = new VectorEncoder({ dimensions: 64, seed: 1, basis: 500, build: "test", mean });
  const random = mulberry32(17);
  const vectors = Array.from({ length: 500 }, () =>
    Float32Array.from({ length: 64 }, () => random() * (0.5 + random()) - 0.2),
  );
  const namespaceOf = (rid: number) => (rid % 3 === 0 ? "b" : "a");

  /** The same codes through set() and through appendStored(), the second with a truncated blob. */
  function twin(): [BinaryCodes, BinaryCodes] {
    const bySet = new BinaryCodes(e.words);
    const byBlob = new BinaryCodes(e.words);
    for (const [i, vector] of vectors.entries()) {
      const rid = 1000 + 7 * i;
      const encoded = e.encode(vector);
      const blob = encodedToBlob(encoded);
      if (i === 42) {
        // A blob too short for its factors ranks last rather than throwing (blobToEncoded()).
        bySet.set(rid, namespaceOf(rid), { code: encoded.code, inverseNorm: 0, scale: 0 });
        byBlob.appendStored(rid, namespaceOf(rid), blob.subarray(0, e.words * 4));
      } else {
        bySet.set(rid, namespaceOf(rid), encoded);
        byBlob.appendStored(rid, namespaceOf(rid), blob);
      }
    }
    return [bySet, byBlob];
  }

  it("ranks as the codes set one by one, through replaces, deletes and filtered scans", () => {
    const [bySet, byBlob] = twin();
    const query = e.query(vectors[7] as Float32Array);
    const same = (count: number, namespace?: string) =>
      expect(byBlob.nearest(query, count, namespace).sort()).toEqual(
        bySet.nearest(query, count, namespace).sort(),
      );
    same(30);
    same(30, "b");
    expect(byBlob.countIn("b")).toBe(bySet.countIn("b"));
    // Lookups by rid after a whole read: a filtered scan, a replace, a delete.
    const among = [1000, 1007, 1000 + 7 * 42, 1000 + 7 * 499, 99];
    expect(byBlob.nearestAmong(query, 3, among).sort()).toEqual(bySet.nearestAmong(query, 3, among).sort());
    const replacement = encodedToBlob(e.encode(vectors[7] as Float32Array));
    bySet.set(1000 + 7 * 300, "b", e.encode(vectors[7] as Float32Array));
    byBlob.setStored(1000 + 7 * 300, "b", replacement);
    bySet.delete(1007);
    byBlob.delete(1007);
    expect(byBlob.count).toBe(499);
    expect(byBlob.countIn("b")).toBe(bySet.countIn("b"));
    same(40);
    same(40, "b");
    expect(byBlob.nearest(query, 2)).toContain(1000 + 7 * 300);
    expect(byBlob.nearest(query, 500)).not.toContain(1007);
  });
});
