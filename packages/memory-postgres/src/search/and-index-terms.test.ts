// An AND pass intersects its rarer terms in the full-text index and tests the common ones on the
// rows that leaves, when those are few.
import { describe, expect, it } from "vitest";
import { andIndexTerms, NARROW_ROWS } from "./and-index-terms.js";
import { AND_INDEX_MAX } from "./recent-window.js";

const STORE = { rows: 1_000_000, budget: 1_000 };

describe("andIndexTerms", () => {
  it("leaves two common terms out of the index when the two rare ones leave few rows", () => {
    // 8.7k × 18k of 1M: ~157 rows to test for the 433k and 791k terms.
    expect(andIndexTerms({ ...STORE, counts: [8_700, 791_000, 433_000, 18_000] })).toEqual([0, 3]);
  });

  it("indexes every term rare enough for the index, however few rows the rarest leaves", () => {
    expect(andIndexTerms({ ...STORE, counts: [2_000, 15_000, 20_000] })).toBeNull();
    expect(AND_INDEX_MAX * STORE.budget).toBe(20_000);
  });

  it("adds the next common term while the indexed ones would leave more than NARROW_ROWS rows", () => {
    // 5k alone leaves 5,000; with 30k, 150: the 800k term is tested on those.
    expect(andIndexTerms({ ...STORE, counts: [800_000, 30_000, 5_000] })).toEqual([2, 1]);
    // 30k × 40k leaves 1,200 and with 500k 600: every term is indexed.
    expect(andIndexTerms({ ...STORE, counts: [30_000, 40_000, 500_000] })).toBeNull();
    expect(NARROW_ROWS).toBe(250);
  });

  it("indexes every term of an AND with an unmeasured term, of one term, or of an empty store", () => {
    expect(andIndexTerms({ ...STORE, counts: [1_000, undefined, 900_000] })).toBeNull();
    expect(andIndexTerms({ ...STORE, counts: [900_000] })).toBeNull();
    expect(andIndexTerms({ rows: 0, budget: 1_000, counts: [5, 6] })).toBeNull();
  });
});
