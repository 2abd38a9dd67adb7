import { isMemoryError } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { applyDecay, DEFAULT_DECAY_FLOOR, decayFor } from "./decay.js";

describe("bounded recency: score × (f + (1 − f) × 2^(−age/h))", () => {
  it.each([
    [0, 1],
    [7, 0.975],
    [14, 0.9625],
    [70, 0.95 + 0.05 * 2 ** -10],
    [Number.POSITIVE_INFINITY, 0.95],
  ])("with the default floor 0.95, a score aged %s days keeps %s of itself", (age, kept) => {
    expect(applyDecay(1, age, 7, DEFAULT_DECAY_FLOOR)).toBeCloseTo(kept, 12);
  });

  it("is seed 000's formula with floor 0", () => {
    expect(applyDecay(0.6, 14, 7, 0)).toBeCloseTo(0.15, 12);
  });

  it("never decays core entries, whatever the floor", () => {
    expect(decayFor("core", 0.7, 365, 7, 0.8)).toBe(0.7);
    expect(decayFor("daily", 0.7, 7, 7, 0.8)).toBeCloseTo(0.63, 12);
  });

  it.each([-0.1, 1.5, Number.NaN])("rejects floor %s", (floor) => {
    let caught: unknown;
    try {
      applyDecay(1, 1, 7, floor);
    } catch (error) {
      caught = error;
    }
    expect(isMemoryError(caught, "INVALID_INPUT")).toBe(true);
    expect((caught as { field?: string }).field).toBe("floor");
  });
});
