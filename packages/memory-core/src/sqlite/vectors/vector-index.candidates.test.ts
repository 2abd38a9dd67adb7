import { describe, expect, it } from "vitest";
import { candidatesFor, filteredPool } from "./vector-index.js";

describe("the pre-filter's candidate pool", () => {
  it("is 1000, or 25 per hit, up to 250k codes", () => {
    expect(candidatesFor(10, 5_000)).toBe(1000);
    expect(candidatesFor(10, 250_000)).toBe(1000);
    expect(candidatesFor(100, 100_000)).toBe(2500);
  });

  it("grows with the store beyond that: one candidate per 250 codes", () => {
    expect(candidatesFor(10, 500_000)).toBe(2000);
    expect(candidatesFor(10, 1_000_000)).toBe(4000);
    expect(candidatesFor(10, 1_000_001)).toBe(4001);
  });

  it("honours a smaller floor (tests) without going under the per-hit share", () => {
    expect(candidatesFor(10, 4_000, 400)).toBe(400);
    expect(candidatesFor(40, 4_000, 400)).toBe(1000);
  });
});

describe("the pool of a filtered search that left fewer than k hits", () => {
  it("grows to twice what should hold k at the share that survived", () => {
    // 40 wanted, 1000 candidates, 20 survived (2 %): 4000 should hold 80.
    expect(filteredPool(40, 1000, 20, 100_000)).toBe(4000);
    expect(filteredPool(10, 1000, 3, 100_000)).toBe(6667);
  });

  it("gives way to the exact scan when none survived or the pool would pass a quarter of the codes", () => {
    expect(filteredPool(40, 1000, 0, 100_000)).toBeNull();
    expect(filteredPool(40, 1000, 1, 100_000)).toBeNull();
    expect(filteredPool(40, 1000, 1, 400_000)).toBe(80_000);
  });
});
