import { describe, expect, it } from "vitest";
import { calibratedScore, MIN_SCORE, relativeCosines, relativeToBest } from "./calibrated-score.js";

describe("calibratedScore", () => {
  it("gives every full match at least 0.5 and the strongest full match 1", () => {
    expect(calibratedScore(1, 0)).toBe(0.5);
    expect(calibratedScore(1, 1)).toBe(1);
    expect(calibratedScore(1, 0.4)).toBeCloseTo(0.7, 12);
  });

  it("scores a partial match below a full one of the same strength", () => {
    for (const strength of [0, 0.3, 1]) {
      expect(calibratedScore(2 / 3, strength)).toBeLessThan(calibratedScore(1, strength));
      expect(calibratedScore(1 / 3, strength)).toBeLessThan(calibratedScore(2 / 3, strength));
    }
    expect(calibratedScore(0.5, 0)).toBeCloseTo(0.5 * 0.5 ** 1.5, 12);
  });

  it("stays in (0, 1] whatever the input", () => {
    expect(calibratedScore(0, 0)).toBe(MIN_SCORE);
    expect(calibratedScore(Number.NaN, -3)).toBe(MIN_SCORE);
    expect(calibratedScore(7, 9)).toBe(1);
  });
});

describe("relativeToBest", () => {
  it("divides by the largest value, whatever its scale", () => {
    expect(relativeToBest([4e-6, 2e-6, 1e-6])).toEqual([1, 0.5, 0.25]);
    expect(relativeToBest([0, Number.NaN])).toEqual([0, 0]);
  });
});

describe("relativeCosines", () => {
  it("spreads a list between its worst and best hit", () => {
    const [best, mid, worst] = relativeCosines([0.9, 0.8, 0.5]);
    expect(best).toBe(1);
    expect(mid).toBeCloseTo(0.75, 12);
    expect(worst).toBe(0);
  });

  it("compares close hits over a spread of at least 0.2", () => {
    const [best, next] = relativeCosines([0.81, 0.8]);
    expect(best).toBe(1);
    expect(next).toBeCloseTo(0.95, 12);
  });
});
