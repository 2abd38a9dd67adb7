/**
 * Which entries a keyword pass ranks when its terms match more than the budget: the newest ones,
 * as many as should hold the matches it wants (keyword-search.ts: twice the pool it re-ranks).
 * Ranking then costs the same at any size instead of growing with the store (1M entries, the
 * speed suite's common words: a pass read and ranked ~5k matches, ~27 ms, each on its own page).
 */
export interface RecentWindow {
  /** The pass ranks entries with a rid above this. */
  afterRid: number;
  /**
   * Read the window's rows one by one, testing the query on each, instead of asking the full-text
   * index: the index turns every posting of the pass's terms into a bitmap first (~0.3 µs each: a
   * word in 107k of 1M entries took 33 ms before the window's 976 matches were read), where a row
   * of the window costs ~1.2 µs.
   */
  scan: boolean;
}

/** What the planner knows of the store and of a pass's terms. */
export interface WindowInput {
  /** Entries in the store (ANALYZE's estimate). */
  rows: number;
  lowestRid: number;
  highestRid: number;
  /** Estimated entries matching each term; undefined when unmeasured (a phrase). */
  counts: readonly (number | undefined)[];
  /** The pass matches any of the terms (its estimates summed) or all (shares multiplied). */
  match: "any" | "all";
  /** Matches a pass ranks at most when it can. */
  budget: number;
  /** Matches the window should hold (at most the budget): what the pass ranks to find its best. */
  wanted: number;
}

/**
 * A window of at most this many budgets of rows is scanned row by row rather than through the
 * index, as is one of fewer rows than a quarter of the postings the index would read.
 */
export const SCAN_ROWS = 4;
const POSTINGS_PER_ROW = 4;

/**
 * An AND whose rarest term matches more than this many budgets: the index walks that term's
 * postings (~0.3 µs each: three words in 25–44 % of 1M entries took 64 ms before a row was read),
 * so a window of the newest rows is scanned instead, at most SCAN_ROWS budgets (when few entries
 * hold every term there, the pass finds fewer and the rarest term's pass fills up). An AND of
 * rarer terms stays with the index, which finds an old entry holding them all.
 */
export const AND_INDEX_MAX = 20;

/**
 * The window of a pass, or null when it fits the budget or cannot be estimated (an OR with an
 * unmeasured term; an AND's unmeasured term only narrows it and counts as matching everything).
 * Rids are spread as the entries: the window's share of the rid span is its share of the rows.
 */
export function recentWindow(input: WindowInput): RecentWindow | null {
  const { rows, lowestRid, highestRid, counts, match, budget } = input;
  const wanted = Math.min(budget, input.wanted);
  if (!(rows > budget) || counts.length === 0) return null;
  if (match === "any" && counts.some((n) => n === undefined)) return null;
  const shares = counts.map((n) => Math.min(1, (n ?? rows) / rows));
  const share =
    match === "all"
      ? shares.reduce((product, s) => product * s, 1)
      : Math.min(
          1,
          shares.reduce((sum, s) => sum + s, 0),
        );
  const ridSpan = highestRid - lowestRid + 1;
  const scanRows = SCAN_ROWS * budget;
  const rarest = Math.min(...counts.map((n) => n ?? rows));
  const matches = share * rows;
  if (match === "all" && rarest > AND_INDEX_MAX * budget) {
    const rowsWanted = matches > 0 ? Math.ceil((ridSpan * wanted) / matches) : ridSpan;
    return { afterRid: highestRid - Math.min(rowsWanted, scanRows, ridSpan), scan: true };
  }
  if (matches <= budget) return null;
  const span = Math.ceil((ridSpan * wanted) / matches);
  return { afterRid: highestRid - span, scan: span <= Math.max(scanRows, matches / POSTINGS_PER_ROW) };
}
