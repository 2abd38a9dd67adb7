import { describe, expect, it } from "vitest";
import { bm25ToScore, strengthOf } from "./keyword-score.js";

describe("bm25ToScore", () => {
  it("returns the magnitude of SQLite's negative bm25", () => {
    expect(bm25ToScore(-7.25)).toBe(7.25);
    expect(bm25ToScore(-0.000001)).toBe(0.000001);
  });

  it("keeps the ranking: more negative bm25 gives a higher score", () => {
    expect(bm25ToScore(-9)).toBeGreaterThan(bm25ToScore(-3));
  });

  it("maps zero, positive and non-finite values to 0", () => {
    expect(bm25ToScore(0)).toBe(0);
    expect(Object.is(bm25ToScore(-0), 0)).toBe(true);
    expect(bm25ToScore(2)).toBe(0);
    expect(bm25ToScore(Number.NaN)).toBe(0);
    expect(bm25ToScore(Number.NEGATIVE_INFINITY)).toBe(0);
    expect(bm25ToScore(Number.POSITIVE_INFINITY)).toBe(0);
  });
});

describe("strengthOf", () => {
  it("is score / (1 + score)", () => {
    expect(strengthOf(1)).toBe(0.5);
    expect(strengthOf(3)).toBe(0.75);
    expect(strengthOf(9)).toBe(0.9);
    expect(strengthOf(0.25)).toBe(0.2);
  });

  it("crosses the 0.85 early-return threshold at a magnitude of 17/3", () => {
    expect(strengthOf(17 / 3)).toBeCloseTo(0.85, 12);
    expect(strengthOf(5.6)).toBeLessThan(0.85);
    expect(strengthOf(5.7)).toBeGreaterThan(0.85);
  });

  it("stays below 1 for large scores, unlike batch-max normalisation", () => {
    expect(strengthOf(1e6)).toBeLessThan(1);
    // A weak lone hit stays weak: it would be 1 if divided by the batch maximum.
    expect(strengthOf(bm25ToScore(-0.5))).toBeCloseTo(1 / 3, 12);
  });

  it("is 0 for zero, negative and non-finite input", () => {
    expect(strengthOf(0)).toBe(0);
    expect(strengthOf(-4)).toBe(0);
    expect(strengthOf(Number.NaN)).toBe(0);
    expect(strengthOf(Number.POSITIVE_INFINITY)).toBe(0);
  });
});
