import { describe, expect, it } from "vitest";
import { overlapAt, overlapWithTies } from "./js-scan-engine.js";
import { addRatios, createSizeFigures } from "./size-figures.js";

describe("size figures", () => {
  it("names figures under speed.<size>. and adds each ratio whose two p50s exist", () => {
    const out = createSizeFigures("1k");
    out.add("claw.keyword.p50_ms", 2, "ms", "lower");
    out.add("plain-fts.keyword.p50_ms", 4, "ms", "lower");
    out.add("common.claw.keyword.p50_ms", 9, "ms", "lower");
    out.add("common.plain-fts.keyword.p50_ms", 3, "ms", "lower");
    out.add("sparse.claw.vector.p50_ms", 1, "ms", "lower");
    out.add("sparse.fullscan.vector.p50_ms", 8, "ms", "lower");
    addRatios(out);
    const ratios = out.figures.filter((f) => f.id.includes(".ratio."));
    expect(ratios.map((f) => [f.id, f.value])).toEqual([
      ["speed.1k.ratio.claw_keyword_vs_plain_fts.p50", 0.5],
      ["speed.1k.common.ratio.claw_keyword_vs_plain_fts.p50", 3],
      ["speed.1k.sparse.ratio.claw_vector_vs_fullscan.p50", 0.125],
    ]);
    expect(out.value("common.claw.keyword.p50_ms")).toBe(9);
    expect(out.value("anisotropic.claw.vector.p50_ms")).toBeUndefined();
  });

  it("writes p50, p95 and optionally p99 of a latency summary", () => {
    const out = createSizeFigures("10k");
    out.latency("x", { p50: 1, p95: 2, p99: 3, mean: 1.5, count: 9 }, false);
    out.latency("y", { p50: 1, p95: 2, p99: 3, mean: 1.5, count: 9 }, true);
    expect(out.figures.map((f) => f.id)).toEqual([
      "speed.10k.x.p50_ms",
      "speed.10k.x.p95_ms",
      "speed.10k.y.p50_ms",
      "speed.10k.y.p95_ms",
      "speed.10k.y.p99_ms",
    ]);
  });
});

describe("recall with ties", () => {
  // Index → exact similarity: 0–2 distinct, then 3, 4 and 5 tied at the cut-off.
  const similarity = [0.9, 0.8, 0.7, 0.5, 0.5, 0.5, 0.1];
  const of = (i: number) => similarity[i] ?? 0;

  it("counts a hit tied with the exact k-th as found, and nothing below it", () => {
    const exact = [0, 1, 2, 3];
    expect(overlapAt([0, 1, 2, 5], exact)).toBe(0.75);
    expect(overlapWithTies([0, 1, 2, 5], exact, of)).toBe(1);
    expect(overlapWithTies([0, 1, 2, 6], exact, of)).toBe(0.75);
    // Tied entries fill only the tied places: missing 0.8 and 0.7 are misses.
    expect(overlapWithTies([0, 4, 5, 3], exact, of)).toBe(0.5);
    expect(overlapWithTies([0, 1, 2, 3], [0, 1, 2, 3, 4], of)).toBe(0.8);
    expect(overlapWithTies([], exact, of)).toBe(0);
    expect(overlapWithTies([1], [], of)).toBe(1);
  });
});
