import { describe, expect, it } from "vitest";
import { type Load, measureRecallRounds, type Span, summariseRounds } from "./recall-rounds.js";

const loadOf = (reqPerS: number, errors = 0): Load => ({
  reqPerS,
  p50: reqPerS / 100,
  p99: reqPerS / 10,
  errors,
});

describe("measureRecallRounds", () => {
  it("warms each way once, then rotates which way goes first in each round", async () => {
    const calls: string[] = [];
    const called =
      <T>(way: string, value: T) =>
      async (span: Span) => {
        calls.push(`${way}:${"seconds" in span ? `${span.seconds}s` : `${span.requests}r`}`);
        return value;
      };
    const sources = {
      direct: called("direct", 1000),
      single: called("single", loadOf(700)),
      workers: called("workers", loadOf(1000)),
      capacity: async () => {
        calls.push("capacity");
        return 1.5;
      },
    };
    await measureRecallRounds(sources, { rounds: 3, seconds: 2, warmupRequests: 3000 });
    expect(calls).toEqual([
      "direct:3000r",
      "single:3000r",
      "workers:3000r",
      "capacity",
      "direct:2s",
      "single:2s",
      "workers:2s",
      "capacity",
      "single:2s",
      "workers:2s",
      "direct:2s",
      "capacity",
      "workers:2s",
      "direct:2s",
      "single:2s",
    ]);
  });
});

describe("summariseRounds", () => {
  it("takes each ratio within a round, so a slow round moves every way of that round together", () => {
    const summary = summariseRounds([
      { capacity: 2, directPerS: 1500, single: loadOf(900), workers: loadOf(1200) },
      // A round on a machine doing other work: everything at half speed, the ratios unchanged.
      { capacity: 1, directPerS: 750, single: loadOf(450), workers: loadOf(600, 2) },
      { capacity: 1.6, directPerS: 1400, single: loadOf(1000), workers: loadOf(1300) },
    ]);
    expect(summary.httpVsDirect).toBeCloseTo(0.8, 6);
    expect(summary.workersVsSingle).toBeCloseTo(4 / 3, 6);
    expect(summary.directPerS).toBe(1400);
    expect(summary.capacity).toBe(1.6);
    // 0.8 / 2, 0.8 / 1 and (1300 / 1400) / 1.6: the median is the third.
    expect(summary.httpVsDirectPerCore).toBeCloseTo(1300 / 1400 / 1.6, 6);
    expect(summary.workers).toEqual({ reqPerS: 1200, p50: 12, p99: 120, errors: 2 });
    expect(summary.single.reqPerS).toBe(900);
  });

  it("refuses an empty list of rounds", () => {
    expect(() => summariseRounds([])).toThrow("no recall rounds");
  });
});
