// A keyword pass over the budget ranks the newest entries only: how many, and whether the
// full-text index or a scan of the window's rows finds them.
import { describe, expect, it } from "vitest";
import { AND_INDEX_MAX, recentWindow, SCAN_ROWS, type WindowInput } from "./recent-window.js";

/** 1M entries with rids 1..1M, a budget of 1,000 matches, a window wanting 400. */
const STORE = { rows: 1_000_000, lowestRid: 1, highestRid: 1_000_000, budget: 1_000, wanted: 400 };

function window(counts: WindowInput["counts"], match: WindowInput["match"] = "any") {
  return recentWindow({ ...STORE, counts, match });
}

describe("recentWindow", () => {
  it("leaves a pass that fits the budget, and a store no larger than it, alone", () => {
    expect(window([600, 400])).toBeNull();
    expect(recentWindow({ ...STORE, rows: 900, highestRid: 900, counts: [900], match: "any" })).toBeNull();
    expect(window([])).toBeNull();
  });

  it("sizes an OR's window to hold the wanted matches, through the index while it holds few rows' postings", () => {
    // 5,000 matches (0.5 %): 400 of them in the newest 80,000 rids.
    expect(window([3_000, 2_000])).toEqual({ afterRid: 920_000, scan: false });
  });

  it("scans a window of few rows, or of fewer rows than a quarter of the postings the index would read", () => {
    // 200k matches: 2,000 rows, under SCAN_ROWS budgets.
    expect(window([200_000])).toEqual({ afterRid: 998_000, scan: true });
    // 107k matches: 3,741 rows.
    expect(window([106_950])).toEqual({ afterRid: 1_000_000 - 3_741, scan: true });
    // 30k matches: 13,334 rows, more than SCAN_ROWS budgets and than 30k / 4.
    expect(window([30_000])).toEqual({ afterRid: 1_000_000 - 13_334, scan: false });
    expect(SCAN_ROWS * STORE.budget).toBe(4_000);
  });

  it("never ranks more than the wanted share of the budget, and follows the rids' span", () => {
    const wide = recentWindow({ ...STORE, wanted: 5_000, counts: [10_000], match: "any" });
    expect(wide).toEqual({ afterRid: 900_000, scan: false });
    // Rids 500,001..2,500,000 for 1M rows (gaps from upserts): the window doubles in rids.
    const sparse = recentWindow({
      ...STORE,
      lowestRid: 500_001,
      highestRid: 2_500_000,
      counts: [5_000],
      match: "any",
    });
    expect(sparse).toEqual({ afterRid: 2_340_000, scan: false });
  });

  it("gives no window to an OR with an unmeasured term, and counts one as matching all in an AND", () => {
    expect(window([50_000, undefined])).toBeNull();
    // AND of 5k × everything: 5,000 matches, the index's to find.
    expect(window([5_000, undefined], "all")).toEqual({ afterRid: 920_000, scan: false });
  });

  it("estimates an AND as independent terms and leaves it to the index while its rarest term is rare", () => {
    // 20,000 × 1 % = 200 estimated: fits.
    expect(window([20_000, 10_000], "all")).toBeNull();
  });

  it("scans a bounded window for an AND whose rarest term alone is over the index's share", () => {
    const rarest = AND_INDEX_MAX * STORE.budget + 1;
    // 20,001 × 50 % × 50 % = 5,000 matches: 80k rows would hold 400, the scan stops at 4,000.
    expect(window([rarest, 500_000, 500_000], "all")).toEqual({ afterRid: 996_000, scan: true });
    // Three words in 40–80 % of entries: 400 of their 128k joint matches lie in the newest 3,125.
    expect(window([400_000, 400_000, 800_000], "all")).toEqual({ afterRid: 1_000_000 - 3_125, scan: true });
  });
});
