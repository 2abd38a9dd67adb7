import { describe, expect, it } from "vitest";
import { lendToNeighbours } from "./session-neighbours.js";

describe("lendToNeighbours", () => {
  const hits = [
    { row: { rid: 2 }, score: 4 },
    { row: { rid: 5 }, score: 2 },
  ];
  const neighbours: Record<number, Array<{ rid: number }>> = { 2: [{ rid: 1 }, { rid: 3 }], 5: [{ rid: 3 }] };

  it("lends weight × score to each neighbour, summing over hits, best first", () => {
    const result = lendToNeighbours(hits, (h) => neighbours[h.row.rid] ?? [], 0.5);
    expect(result.map((h) => [h.row.rid, h.score])).toEqual([
      [2, 4],
      [3, 3],
      [1, 2],
      [5, 2],
    ]);
  });

  it("adds to a neighbour that is itself a hit", () => {
    const result = lendToNeighbours(hits, (h) => (h.row.rid === 2 ? [{ rid: 5 }] : []), 0.5);
    expect(result.map((h) => [h.row.rid, h.score])).toEqual([
      [2, 4],
      [5, 4],
    ]);
  });

  it("changes nothing with weight 0", () => {
    expect(lendToNeighbours(hits, () => [{ rid: 9 }], 0)).toEqual(hits);
  });
});
