import { describe, expect, it } from "vitest";
import type { Measured } from "./measure-backend.js";
import { POSTGRES_SIZES, postgresSuite } from "./postgres-suite.js";
import { recallGrowth, sizeLabel } from "./recall-growth.js";

const measured = (keyword: number, keywordTyped: number, hybrid: number): Measured => ({
  importPerS: 1000,
  importRowsPerS: 2000,
  flushS: 0.5,
  keyword,
  hybrid,
  keywordTyped,
  hybridTyped: hybrid,
  store: 1,
  storeStatements: undefined,
  turn: 1,
  turnStatements: undefined,
});

describe("postgres suite profiles", () => {
  it("measures 2k in ci, 100k in full, and 100k then 1M in one large run", () => {
    expect(postgresSuite.profiles).toEqual(["ci", "full", "large"]);
    expect(POSTGRES_SIZES).toEqual({ ci: [2_000], full: [100_000], large: [100_000, 1_000_000] });
    expect(POSTGRES_SIZES.large.map(sizeLabel)).toEqual(["100k", "1M"]);
  });
});

describe("recall growth between sizes of one run", () => {
  const bySize = [
    {
      size: 100_000,
      results: new Map([
        ["sqlite", measured(2, 4, 5)],
        ["server", measured(6, 5, 10)],
      ]),
    },
    {
      size: 1_000_000,
      results: new Map([
        ["sqlite", measured(5, 6, 10)],
        ["server", measured(15, 20, 12)],
      ]),
    },
  ];

  it("divides each backend's p50 at the larger size by its p50 at the smaller", () => {
    const { figures } = recallGrowth(bySize);
    expect(figures.map((f) => [f.id, f.value])).toEqual([
      ["postgres.growth.1M_vs_100k.sqlite.keyword_p50", 2.5],
      ["postgres.growth.1M_vs_100k.sqlite.keyword_typed_p50", 1.5],
      ["postgres.growth.1M_vs_100k.sqlite.hybrid_p50", 2],
      ["postgres.growth.1M_vs_100k.server.keyword_p50", 2.5],
      ["postgres.growth.1M_vs_100k.server.keyword_typed_p50", 4],
      ["postgres.growth.1M_vs_100k.server.hybrid_p50", 1.2],
    ]);
    expect(figures.every((f) => f.better === "lower" && f.unit === "×")).toBe(true);
  });

  it("is a table of one row per backend for the large docs block", () => {
    const { table } = recallGrowth(bySize);
    expect(table?.title).toBe("Recall p50 at 1M over 100k, same run");
    expect(table?.docs).toBe("postgres-large");
    expect(table?.rows).toEqual([
      ["sqlite", 2.5, 1.5, 2],
      ["server", 2.5, 4, 1.2],
    ]);
  });

  it("has nothing to report from one size, or for a backend measured at one size only", () => {
    expect(recallGrowth(bySize.slice(0, 1))).toEqual({ figures: [], table: null });
    const partial = [bySize[0], { size: 1_000_000, results: new Map([["pglite", measured(1, 1, 1)]]) }];
    expect(recallGrowth(partial as typeof bySize)).toEqual({ figures: [], table: null });
  });
});
