import { describe, expect, it } from "vitest";
import { adaptiveFusion, vectorWeight } from "./adaptive-fusion.js";

const keyword = [1, 2, 3, 4].map((id, i) => ({ id, score: 8 - 2 * i }));

describe("vectorWeight", () => {
  it("is 0 when the best keyword hit has every query term", () => {
    const vector = [1, 2, 3, 4].map((id) => ({ id, similarity: 0.9 }));
    expect(vectorWeight(keyword, vector, { keywordCoverage: 1 })).toBe(0);
  });

  it("grows with the lists' agreement and the keyword list's doubt", () => {
    const agreeing = [2, 1, 3, 4].map((id, i) => ({ id, similarity: 0.9 - i / 10 }));
    const disagreeing = [9, 8, 7, 1].map((id, i) => ({ id, similarity: 0.9 - i / 10 }));
    const signals = { keywordCoverage: 0.5 };
    expect(vectorWeight(keyword, agreeing, signals)).toBeCloseTo(0.5 ** 2, 12);
    expect(vectorWeight(keyword, disagreeing, signals)).toBeCloseTo(0.125 ** 2, 12);
  });

  it("lets the vector list decide alone when no keyword hit was found", () => {
    expect(vectorWeight([], [{ id: 1, similarity: 0.3 }], { keywordCoverage: 0 })).toBe(1);
    expect(vectorWeight(keyword, [], { keywordCoverage: 0 })).toBe(0);
  });
});

describe("adaptiveFusion", () => {
  it("never lets an untrusted vector list reorder the keyword list", () => {
    const vector = [4, 3, 9].map((id, i) => ({ id, similarity: 0.9 - i / 10 }));
    const fused = adaptiveFusion(keyword, vector, { keywordCoverage: 1 });
    const order = [...fused.entries()].sort((a, b) => b[1] - a[1]).map(([id]) => id);
    expect(order.slice(0, 4)).toEqual([1, 2, 3, 4]);
    expect(fused.get(9)).toBe(0);
  });

  it("fills the strength the keyword list left open: k + w × v × (1 − k)", () => {
    const vector = [4, 1, 2, 3].map((id, i) => ({ id, similarity: 0.9 - i / 10 }));
    const fused = adaptiveFusion(keyword, vector, { keywordCoverage: 0 });
    // agreement 1 (same four ids), doubt 1: weight 1.
    expect(fused.get(4)).toBeCloseTo(0.25 + 1 * 1 * 0.75, 12);
    expect(fused.get(1)).toBe(1);
  });
});
