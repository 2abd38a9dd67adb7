import { isMemoryError } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { ageInDays, applyDecay, decayFor } from "./decay.js";

describe("applyDecay", () => {
  it.each([
    [1, 0, 7, 1],
    [1, 7, 7, 0.5],
    [1, 14, 7, 0.25],
    [0.8, 7, 7, 0.4],
    [1, 3.5, 7, Math.SQRT1_2],
    [1, 30, 30, 0.5],
    [1, 1, 1, 0.5],
    [2, 21, 7, 0.25],
  ])("score %s aged %s days, half-life %s → %s", (score, age, halfLife, expected) => {
    expect(applyDecay(score, age, halfLife)).toBeCloseTo(expected, 12);
  });

  it("uses a 7-day half-life by default", () => {
    expect(applyDecay(1, 7)).toBeCloseTo(0.5, 12);
  });

  it("treats negative ages as 0", () => {
    expect(applyDecay(0.6, -10)).toBe(0.6);
  });

  it("treats NaN ages as 0 and infinite ages as fully decayed", () => {
    expect(applyDecay(0.6, Number.NaN)).toBe(0.6);
    expect(applyDecay(0.6, Number.POSITIVE_INFINITY)).toBe(0);
  });

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY])("rejects half-life %s", (halfLife) => {
    let caught: unknown;
    try {
      applyDecay(1, 1, halfLife);
    } catch (error) {
      caught = error;
    }
    expect(isMemoryError(caught, "INVALID_INPUT")).toBe(true);
    expect((caught as { field?: string }).field).toBe("halfLifeDays");
  });
});

describe("decayFor", () => {
  it("never decays core memories", () => {
    expect(decayFor("core", 0.7, 365, 7)).toBe(0.7);
  });

  it("decays other categories", () => {
    expect(decayFor("daily", 0.8, 7, 7)).toBeCloseTo(0.4, 12);
    expect(decayFor("conversation", 1, 14)).toBeCloseTo(0.25, 12);
    expect(decayFor("custom", 1, 10, 10)).toBeCloseTo(0.5, 12);
  });

  it("validates the half-life even for core", () => {
    expect(() => decayFor("core", 1, 1, 0)).toThrow(/halfLifeDays/);
  });
});

describe("ageInDays", () => {
  const now = new Date("2024-03-10T12:00:00.000Z");

  it.each([
    ["2024-03-10T12:00:00Z", 0],
    ["2024-03-09T12:00:00Z", 1],
    ["2024-03-03T12:00:00.000Z", 7],
    ["2024-03-10T00:00:00Z", 0.5],
    ["2024-03-10T06:00:00-06:00", 0],
    ["2024-03-10T13:00:00+01:00", 0],
    ["2024-03-09t12:00:00z", 1],
    ["2024-03-09 12:00:00", 1], // SQLite CURRENT_TIMESTAMP, UTC
    ["2024-03-09", 1.5],
    ["2024-02-29T12:00:00Z", 10], // leap day
  ])("%s → %s", (timestamp, expected) => {
    expect(ageInDays(timestamp, now)).toBeCloseTo(expected, 9);
  });

  it.each([
    "",
    "yesterday",
    "2024-13-01T00:00:00Z",
    "2023-02-29T00:00:00Z",
    "2024-03-10T25:00:00Z",
    "2024-03-10T12:00:00+25:00",
    "03/09/2024",
    "March 9, 2024",
    "1710000000",
  ])("invalid %j → 0", (timestamp) => {
    expect(ageInDays(timestamp, now)).toBe(0);
  });

  it("gives 0 for a timestamp in the future", () => {
    expect(ageInDays("2024-03-11T12:00:00Z", now)).toBe(0);
  });

  it("gives 0 for an invalid now", () => {
    expect(ageInDays("2024-03-09T12:00:00Z", new Date(Number.NaN))).toBe(0);
  });

  it("keeps fractional seconds", () => {
    expect(ageInDays("2024-03-10T11:59:59.5Z", now) * 86_400_000).toBeCloseTo(500, 3);
  });

  it("reads years below 100 literally", () => {
    expect(ageInDays("0050-01-01T00:00:00Z", new Date("0051-01-01T00:00:00Z"))).toBe(365);
  });
});
