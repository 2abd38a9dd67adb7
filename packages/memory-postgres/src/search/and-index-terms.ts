import { AND_INDEX_MAX } from "./recent-window.js";

/**
 * Rows an AND pass's index terms may leave to read, at most (estimated), before the next more
 * common term joins them in the index: each costs a heap fetch (~2–5 µs from cache, more from
 * disk), where the index walks a common term's postings (see below).
 */
export const NARROW_ROWS = 250;

/** What the planner knows of an AND pass's terms. */
export interface AndTermsInput {
  /** Entries in the store (ANALYZE's estimate). */
  rows: number;
  /** Estimated entries matching each term; undefined when unmeasured (a phrase). */
  counts: readonly (number | undefined)[];
  /** Matches a pass ranks at most when it can. */
  budget: number;
}

/**
 * Which terms of an AND pass the full-text index should intersect (indices into `counts`, rarest
 * first); the others are tested on the rows it finds. Null when every term should be (or a term is
 * unmeasured). A GIN index answers an AND by walking every term's postings, skipping ahead in the
 * common ones: 1M entries of the speed suite's common words, four terms in 0.9 %, 1.8 %, 43 % and
 * 79 % of them, 76 entries holding all four: 8.3 ms (23 ms cold) through the index, 1.7 ms
 * (6.9 ms cold) with the two rare ones in the index and the two common ones tested on the 167
 * rows they share. A term is indexed when it is rare enough for the index to walk it
 * (AND_INDEX_MAX budgets, as recentWindow's rule), or while the terms indexed so far would leave
 * more than NARROW_ROWS rows to read.
 */
export function andIndexTerms(input: AndTermsInput): number[] | null {
  const { rows, counts, budget } = input;
  if (!(rows > 0) || counts.length < 2) return null;
  const measured: number[] = [];
  for (const count of counts) {
    if (count === undefined) return null;
    measured.push(count);
  }
  const order = measured.map((count, i) => ({ count, i })).sort((a, b) => a.count - b.count || a.i - b.i);
  const indexed: number[] = [];
  let expected = rows;
  for (const { count, i } of order) {
    if (indexed.length > 0 && count > AND_INDEX_MAX * budget && expected <= NARROW_ROWS) break;
    indexed.push(i);
    expected *= Math.min(1, count / rows);
  }
  return indexed.length === counts.length ? null : indexed;
}
