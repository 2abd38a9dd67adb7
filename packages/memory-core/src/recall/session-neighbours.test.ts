import { describe, expect, it } from "vitest";
import { isQuestion, lendToNeighbours, type SessionNeighbours } from "./session-neighbours.js";

type Row = { rid: number; content: string };
const row = (rid: number, content = `turn ${rid}.`): Row => ({ rid, content });

describe("lendToNeighbours", () => {
  const hits = [
    { row: row(2), score: 4 },
    { row: row(5), score: 2 },
  ];
  const neighbours: Record<number, SessionNeighbours<Row>> = {
    2: { before: row(1), after: row(3) },
    5: { before: row(3) },
  };

  it("lends weight × score to each neighbour, summing over hits, best first", () => {
    const result = lendToNeighbours(hits, (h) => neighbours[h.row.rid] ?? {}, 0.5);
    expect(result.map((h) => [h.row.rid, h.score])).toEqual([
      [2, 4],
      [3, 3],
      [1, 2],
      [5, 2],
    ]);
  });

  it("adds to a neighbour that is itself a hit", () => {
    const result = lendToNeighbours(hits, (h) => (h.row.rid === 2 ? { after: row(5) } : {}), 0.5);
    expect(result.map((h) => [h.row.rid, h.score])).toEqual([
      [2, 4],
      [5, 4],
    ]);
  });

  it("changes nothing with weight 0", () => {
    expect(lendToNeighbours(hits, () => ({ before: row(9), after: row(8) }), 0)).toEqual(hits);
  });
});

describe("a question lends its reply more", () => {
  const question = { row: row(2, "Maria: How often do you work out with your family?"), score: 4 };
  const around = () => ({ before: row(1), after: row(3, "John: Three times a week.") });

  it("lends twice the weight to the turn after it, at most its whole score", () => {
    const lent = (weight: number) =>
      lendToNeighbours([question], around, weight).map((h) => [h.row.rid, h.score, h.lent]);
    expect(lent(0.5)).toEqual([
      [2, 4, 0],
      [3, 4, 4],
      [1, 2, 2],
    ]);
    expect(lent(0.3)).toEqual([
      [2, 4, 0],
      [3, 2.4, 2.4],
      [1, 1.2, 1.2],
    ]);
    expect(lent(0.75)).toEqual([
      [2, 4, 0],
      [3, 4, 4],
      [1, 3, 3],
    ]);
  });

  it("lends a statement's reply the usual share", () => {
    const statement = { row: row(2, "Maria: We work out as a family."), score: 4 };
    const result = lendToNeighbours([statement], around, 0.5);
    expect(result.find((h) => h.row.rid === 3)?.score).toBe(2);
  });

  it("takes a short turn ending in a question mark as a question, a long message not", () => {
    expect(isQuestion("Did you go?  ")).toBe(true);
    expect(isQuestion("你去了吗？")).toBe(true);
    expect(isQuestion("I went.")).toBe(false);
    expect(isQuestion("Why? Because I could.")).toBe(false);
    const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(" ");
    expect(isQuestion(`${words(99)} ok?`)).toBe(true);
    expect(isQuestion(`${words(100)} ok?`)).toBe(false);
  });
});
