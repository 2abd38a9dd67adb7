import { describe, expect, it } from "vitest";
import { byCoverage, termCoverage } from "./term-coverage.js";

const row = (rid: number, content: string) => ({ rid, key: `k${rid}`, content });

describe("termCoverage", () => {
  it("is the share of terms found in key or content, case- and width-insensitively", () => {
    expect(termCoverage(row(1, "Ｇreen TEA"), ["green", "tea", "milk"])).toBeCloseTo(2 / 3, 12);
    expect(termCoverage({ key: "milk", content: "" }, ["milk"])).toBe(1);
    expect(termCoverage(row(1, "anything"), [])).toBe(0);
  });
});

describe("byCoverage", () => {
  it("scales by coverage^0.75 so an entry answering more of the query ranks first", () => {
    const hits = [
      { row: row(1, "tea tea tea"), score: 4 },
      { row: row(2, "green tea"), score: 3 },
    ];
    const ranked = byCoverage(hits, ["green", "tea"]);
    expect(ranked.map((h) => h.row.rid)).toEqual([2, 1]);
    expect(ranked[1]?.score).toBeCloseTo(4 * 0.5 ** 0.75, 12);
  });

  it("leaves a one-term query as it is", () => {
    const hits = [{ row: row(1, "tea"), score: 4 }];
    expect(byCoverage(hits, ["tea"])).toEqual(hits);
  });
});
