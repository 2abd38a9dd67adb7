import { describe, expect, it } from "vitest";
import { candidatesFor } from "./vector-index.js";

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
