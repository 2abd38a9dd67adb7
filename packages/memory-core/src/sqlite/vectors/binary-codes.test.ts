import { describe, expect, it } from "vitest";
import { BinaryCodes } from "./binary-codes.js";
import { VectorEncoder } from "./vector-encoder.js";

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
