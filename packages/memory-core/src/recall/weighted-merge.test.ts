import { isMemoryError } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { weightedMerge } from "./weighted-merge.js";

describe("weightedMerge", () => {
  it("combines clamped cosine and max-normalised keyword scores with the given weights", () => {
    const merged = weightedMerge(
      [
        { id: "a", score: 0.9 },
        { id: "b", score: 0.5 },
        { id: "c", score: -0.2 },
      ],
      [
        { id: "b", score: 8 },
        { id: "d", score: 4 },
      ],
      { vectorWeight: 0.7, keywordWeight: 0.3 },
    );
    expect(merged.map((r) => r.id)).toEqual(["b", "a", "d", "c"]);
    expect(merged[0]?.score).toBeCloseTo(0.7 * 0.5 + 0.3 * 1, 12); // 0.65
    expect(merged[1]?.score).toBeCloseTo(0.7 * 0.9, 12); // 0.63
    expect(merged[2]?.score).toBeCloseTo(0.3 * 0.5, 12); // 0.15: keyword 4 / max 8
    expect(merged[3]?.score).toBe(0); // negative cosine clamps to 0
  });

  it("clamps cosine above 1 and ignores a non-positive keyword batch", () => {
    const merged = weightedMerge(
      [{ id: "e", score: 1.2 }],
      [
        { id: "f", score: 0 },
        { id: "g", score: -3 },
      ],
      { vectorWeight: 0.5, keywordWeight: 0.5 },
    );
    expect(merged).toEqual([
      { id: "e", score: 0.5 },
      { id: "f", score: 0 },
      { id: "g", score: 0 },
    ]);
  });

  it("keeps the order ids were first met when scores tie (vector side first)", () => {
    const merged = weightedMerge([{ id: "x", score: 0.5 }], [{ id: "y", score: 10 }], {
      vectorWeight: 0.5,
      keywordWeight: 0.25,
    });
    expect(merged).toEqual([
      { id: "x", score: 0.25 },
      { id: "y", score: 0.25 },
    ]);
    const reversed = weightedMerge([{ id: "y", score: 0.5 }], [{ id: "x", score: 10 }], {
      vectorWeight: 0.5,
      keywordWeight: 0.25,
    });
    expect(reversed.map((r) => r.id)).toEqual(["y", "x"]);
  });

  it("keeps the best score when an id is listed twice on one side", () => {
    const merged = weightedMerge(
      [
        { id: "a", score: 0.2 },
        { id: "a", score: 0.6 },
      ],
      [],
      { vectorWeight: 1, keywordWeight: 1 },
    );
    expect(merged).toEqual([{ id: "a", score: 0.6 }]);
  });

  it("is keyword-only when the vector weight is 0", () => {
    const merged = weightedMerge(
      [{ id: "v", score: 1 }],
      [
        { id: "k1", score: 2 },
        { id: "k2", score: 6 },
      ],
      { vectorWeight: 0, keywordWeight: 1 },
    );
    expect(merged.map((r) => r.id)).toEqual(["k2", "k1", "v"]);
    expect(merged[1]?.score).toBeCloseTo(1 / 3, 12);
  });

  it("returns an empty array when both sides are empty", () => {
    expect(weightedMerge([], [], { vectorWeight: 0.5, keywordWeight: 0.5 })).toEqual([]);
  });

  it("rejects negative or non-finite weights naming the field", () => {
    const cases: Array<[number, number, string]> = [
      [-0.1, 0.5, "vectorWeight"],
      [0.5, Number.NaN, "keywordWeight"],
      [Number.POSITIVE_INFINITY, 0.5, "vectorWeight"],
    ];
    for (const [vectorWeight, keywordWeight, field] of cases) {
      try {
        weightedMerge([], [], { vectorWeight, keywordWeight });
        expect.unreachable();
      } catch (err) {
        expect(isMemoryError(err, "INVALID_INPUT")).toBe(true);
        expect((err as { field?: string }).field).toBe(field);
      }
    }
  });
});
