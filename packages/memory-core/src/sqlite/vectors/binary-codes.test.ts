import { describe, expect, it } from "vitest";
import { BinaryCodes, blobToCode, codeToBlob } from "./binary-codes.js";

const v = (...xs: number[]) => Float32Array.from(xs);

describe("binary codes", () => {
  it("packs one sign bit per dimension, little-endian in storage", () => {
    const codes = new BinaryCodes(40);
    const code = codes.encode(Float32Array.from({ length: 40 }, (_, i) => (i % 3 === 0 ? 1 : -1)));
    expect(code.length).toBe(2);
    expect(code[0]).toBe(0b01001001001001001001001001001001);
    expect(Array.from(blobToCode(codeToBlob(code), 2))).toEqual(Array.from(code));
    expect(Array.from(codes.encode(new Uint8Array(v(1, -1, 0, 2).buffer)))).toEqual([0b1001, 0]);
  });

  it("returns the nearest codes by hamming distance, within a namespace when asked", () => {
    const codes = new BinaryCodes(4);
    codes.set(1, "a", codes.encode(v(1, 1, 1, 1)));
    codes.set(2, "a", codes.encode(v(1, 1, 1, -1)));
    codes.set(3, "b", codes.encode(v(1, 1, -1, -1)));
    codes.set(4, "a", codes.encode(v(-1, -1, -1, -1)));
    const query = codes.encode(v(1, 1, 1, 1));
    expect(codes.nearest(query, 2)).toEqual([1, 2]);
    expect(codes.nearest(query, 3)).toEqual([1, 2, 3]);
    expect(codes.nearest(query, 2, "b")).toEqual([3]);
    expect(codes.nearest(query, 2, "missing")).toEqual([]);
  });

  it("keeps the arrays dense across deletes and replaces a rid's code in place", () => {
    const codes = new BinaryCodes(4);
    for (let rid = 1; rid <= 3000; rid++) codes.set(rid, "a", codes.encode(v(rid % 2 ? 1 : -1, 1, 1, 1)));
    expect(codes.count).toBe(3000);
    codes.delete(1);
    codes.delete(2);
    codes.delete(2);
    expect(codes.count).toBe(2998);
    codes.set(3, "a", codes.encode(v(-1, -1, -1, -1)));
    const far = codes.nearest(codes.encode(v(-1, -1, -1, -1)), 1);
    expect(far).toEqual([3]);
    expect(codes.nearest(codes.encode(v(1, 1, 1, 1)), 5000)).toHaveLength(2998);
  });
});
