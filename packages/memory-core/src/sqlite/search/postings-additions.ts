import type { StatementCache } from "../schema/statement-cache.js";
import { bm25Part, frequencyOfPart, idfOf, lengthNorm } from "./bm25-formula.js";
import { COLUMN_WEIGHTS } from "./fts-index.js";
import { type EntryLengths, readLengths, readStats } from "./fts5-shadow-tables.js";

/** One term's entries, ascending, with f(q, D) (counts weighted by column) and D (tokens). */
export interface TermPostings {
  rids: Int32Array;
  freqs: Float64Array;
  lengths: Int32Array;
  /** Every entry up to this rowid is in (or not holding the term): the newest when read. */
  coveredRid: number;
}

/** Counts weighted by COLUMN_WEIGHTS are multiples of this. */
const WEIGHT_STEP = 0.5;

/**
 * `term`'s postings with the entries added above its coveredRid that hold `word`, when entries
 * were only added since it was read. FTS5 gives those entries' bm25 for the word alone; with the
 * row count, average length, hit count and each entry's length, the formula gives back f, a
 * multiple of WEIGHT_STEP. One statement over the new rowids (FTS5 seeks them in its doclists)
 * instead of reading the term whole: a store that adds an entry before every recall keeps its
 * postings. Null when an f does not come back a multiple (a change this cannot see): the caller
 * reads the term whole. One read transaction, so that FTS5 and the statistics agree.
 */
export function withAdditions(
  statements: StatementCache,
  term: TermPostings,
  word: string,
  lengths: EntryLengths,
): TermPostings | null {
  const newest = statements.get("SELECT max(rid) FROM memories").pluck();
  return newest.database.transaction((): TermPostings | null => {
    const coveredRid = (newest.get() as number | null) ?? 0;
    const added = statements
      .get(
        `SELECT rowid, bm25(memories_fts, ${COLUMN_WEIGHTS.join(", ")}) FROM memories_fts
         WHERE memories_fts MATCH ? AND rowid > ? ORDER BY rowid`,
      )
      .raw()
      .all(`"${word}"`, term.coveredRid) as [number, number][];
    if (added.length === 0) return { ...term, coveredRid };
    const stats = readStats(statements);
    if (stats === null) return null;
    const rids = added.map(([rid]) => rid);
    const missing = rids.filter((rid) => lengths.get(rid) < 0);
    if (missing.length > 0) readLengths(statements, missing, lengths);
    const idf = idfOf(stats.rows, term.rids.length + added.length);
    const freqs: number[] = [];
    for (const [rid, rank] of added) {
      const length = lengths.get(rid);
      if (length < 0) return null;
      const norm = lengthNorm(length, stats.avgdl);
      const f = Math.round(frequencyOfPart(-rank, idf, norm) / WEIGHT_STEP) * WEIGHT_STEP;
      // The f found must give back FTS5's score exactly (or within its last bits).
      if (!(f > 0) || Math.abs(bm25Part(idf, f, norm) + rank) > Math.abs(rank) * 1e-12) return null;
      freqs.push(f);
    }
    return {
      rids: appended(term.rids, rids),
      freqs: appended(term.freqs, freqs),
      lengths: appended(
        term.lengths,
        rids.map((rid) => lengths.get(rid)),
      ),
      coveredRid,
    };
  })();
}

/** A typed array with `more` after its own values. */
function appended<T extends Int32Array | Float64Array>(values: T, more: readonly number[]): T {
  const out = new (values.constructor as new (length: number) => T)(values.length + more.length);
  out.set(values);
  out.set(more, values.length);
  return out;
}
