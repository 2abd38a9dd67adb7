import { isMemoryError } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { rrfMerge } from "./rrf-merge.js";

describe("rrfMerge", () => {
  it("sums 1/(k+rank+1) over the lists, matching hand-computed values", () => {
    const merged = rrfMerge([
      ["a", "b", "c"],
      ["c", "a"],
    ]);
    expect(merged.map((r) => r.id)).toEqual(["a", "c", "b"]);
    expect(merged[0]?.score).toBeCloseTo(1 / 61 + 1 / 62, 12);
    expect(merged[1]?.score).toBeCloseTo(1 / 63 + 1 / 61, 12);
    expect(merged[2]?.score).toBeCloseTo(1 / 62, 12);
  });

  it("honours a custom k", () => {
    const merged = rrfMerge([["x", "y"], ["y"]], 0);
    // x = 1/1, y = 1/2 + 1/1
    expect(merged).toEqual([
      { id: "y", score: 1.5 },
      { id: "x", score: 1 },
    ]);
  });

  it("breaks exact score ties by first appearance when best ranks are equal", () => {
    const merged = rrfMerge([
      ["p", "q"],
      ["q", "p"],
    ]);
    // Both score 1/61 + 1/62 with best rank 0: p was met first.
    expect(merged.map((r) => r.id)).toEqual(["p", "q"]);
    expect(merged[0]?.score).toBe(merged[1]?.score);

    const swapped = rrfMerge([
      ["q", "p"],
      ["p", "q"],
    ]);
    expect(swapped.map((r) => r.id)).toEqual(["q", "p"]);
  });

  it("breaks score ties by the best single rank before first appearance", () => {
    // k = 0. n sits at rank 1 in three lists: 3 × 1/2 = 1.5, best rank 1, met second.
    // m sits at rank 0 and rank 1: 1 + 1/2 = 1.5, best rank 0, met fifth.
    const merged = rrfMerge([["x", "n"], ["y", "n"], ["z", "n"], ["m"], ["w", "m"]], 0);
    expect(merged).toEqual([
      { id: "m", score: 1.5 },
      { id: "n", score: 1.5 },
      { id: "x", score: 1 },
      { id: "y", score: 1 },
      { id: "z", score: 1 },
      { id: "w", score: 1 },
    ]);
  });

  it("counts an id repeated within one list only once, at its best rank", () => {
    expect(rrfMerge([["a", "a", "b"]], 0)).toEqual([
      { id: "a", score: 1 },
      { id: "b", score: 1 / 3 },
    ]);
  });

  it("returns an empty array for no lists or only empty lists", () => {
    expect(rrfMerge([])).toEqual([]);
    expect(rrfMerge([[], []])).toEqual([]);
  });

  it("rejects negative or non-finite k", () => {
    for (const k of [-1, Number.NaN, Number.POSITIVE_INFINITY]) {
      try {
        rrfMerge([["a"]], k);
        expect.unreachable();
      } catch (err) {
        expect(isMemoryError(err, "INVALID_INPUT")).toBe(true);
      }
    }
  });
});
