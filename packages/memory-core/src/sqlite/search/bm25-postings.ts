import { porterStem } from "../../text/porter-stem.js";
import type { StatementCache } from "../schema/statement-cache.js";
import { bm25Part, idfOf, lengthNorm } from "./bm25-formula.js";
import { COLUMN_WEIGHTS, FTS_COLUMNS } from "./fts-index.js";
import { EntryLengths, readLengths, readStats } from "./fts5-shadow-tables.js";
import { fullTextChanges, fullTextRewrites } from "./full-text-changes.js";
import { type TermPostings, withAdditions } from "./postings-additions.js";

/**
 * FTS5's bm25(), computed in JavaScript from postings this connection keeps in memory. FTS5 spends
 * ~1.3 µs on each entry it ranks (the entry's positions, and its length read from the docsize
 * table by a statement per row); a recall at 10k entries ranks ~270 of them, and that was 40 % of
 * what a recall costs the HTTP server. Held in memory, a term's entries with their column-weighted
 * counts and lengths rank in ~0.1 µs each, with the same formula, constants and summation order
 * as fts5_aux.c (the scores agree to the last bit or two).
 *
 * What is held follows the index (full-text-changes.ts). When entries were only added since a term
 * was read, the new entries holding it are folded in (postings-additions.ts: one FTS5 lookup over
 * the new rowids); any other change (an entry rewritten or removed) drops everything held.
 * A term is read only when a query meets it a second time (READ_AT_SIGHTING): a store whose every
 * recall is new words, or that rewrites entries between every two recalls, keeps ranking with FTS5
 * and pays only a few lookups.
 */

interface PostingsState {
  /** The data_version and own-change count at the last look at the index. */
  version: number;
  own: number;
  /** Rewrites of the index (full-text-changes.ts) then: a different count drops everything. */
  rewrites: number;
  /** The newest rowid then: entries were added above the postings' coveredRid. */
  newestRid: number;
  /** A term's postings, or how many queries have met it since they were dropped. */
  terms: Map<string, TermPostings | number>;
  /** Terms left to FTS5 in this state of the index: too many entries hold them. */
  tooLarge: Set<string>;
  /** Tokens per entry, all columns (FTS5's xColumnSize(-1)), as far as read at this stamp. */
  lengths: EntryLengths;
  /** Entries and average tokens per entry (FTS5's xRowCount and xColumnTotalSize(-1)). */
  stats: { rows: number; avgdl: number } | null;
  /** Postings held: past MAX_POSTINGS_HELD, everything is dropped and read again as needed. */
  held: number;
  /** Scratch space of topOf: a score per rowid, all zero between queries. */
  scores: Float64Array;
}

/** 16 bytes each: 16 MB per connection at most (a 10k-entry store holds ~280k in all). */
const MAX_POSTINGS_HELD = 1_000_000;
/** The highest rowid ranked from memory (16 bytes per rowid up to it: 64 MB at most). */
const MAX_ROWID_HELD = 4_000_000;
/** A term held by more entries is left to FTS5 (reading it costs ~0.3 µs an entry). */
const MAX_TERM_POSTINGS = 200_000;
/**
 * A term is read when this many queries have met it (reading it costs a little more than what
 * FTS5 spends on it in one query). At 10k entries, queries never asked before, on a store that had
 * served 2,000 others: p50 0.81–0.87× the time of FTS5 alone read at the second sighting, 0.96–0.99×
 * at the third; on a store that had served none, 1.01–1.09× either way.
 */
const READ_AT_SIGHTING = 2;
/** Terms met (held or seen) before everything is dropped. */
const MAX_TERMS_KNOWN = 100_000;

/** The best entries for OR-ed terms, by bm25 rank (ascending, as FTS5's: negated scores). */
export interface RankedRids {
  rids: number[];
  ranks: number[];
}

const states = new WeakMap<StatementCache, PostingsState>();
const instanceTables = new WeakSet<StatementCache>();

/**
 * The `depth` best entries for the plain words `terms` OR-ed (one FTS5 phrase each, in order),
 * ranked as `bm25(memories_fts, ...COLUMN_WEIGHTS)` with ties in rowid order, as FTS5 under
 * `ORDER BY rank LIMIT depth` returns them; or null when this connection cannot rank them from
 * memory (yet): the caller then asks FTS5. Only words of ASCII letters and digits qualify (their
 * index form is their Porter stem); never inside a transaction, whose writes may roll back.
 */
export function bm25FromPostings(
  statements: StatementCache,
  terms: readonly string[],
  depth: number,
): RankedRids | null {
  if (terms.length === 0 || !terms.every((term) => PLAIN_WORD.test(term))) return null;
  const version = statements.get("PRAGMA data_version").pluck();
  if (version.database.inTransaction) return null;
  const state = current(statements, version.get() as number);
  // Scores and lengths are arrays indexed by rowid: a store with rowids that large keeps FTS5.
  if (state.newestRid > MAX_ROWID_HELD) return null;
  const stems = terms.map(porterStem);
  let ready = true;
  for (const stem of new Set(stems)) {
    const known = state.terms.get(stem);
    if (typeof known === "object") continue;
    const sightings = (known ?? 0) + 1;
    state.terms.set(stem, sightings);
    if (sightings < READ_AT_SIGHTING) ready = false;
  }
  if (!ready) return null;
  state.stats ??= readStats(statements);
  if (state.stats === null) return null;
  const postings: TermPostings[] = [];
  for (const [i, stem] of stems.entries()) {
    const term = held(statements, state, stem, terms[i] as string);
    if (term === null) return null;
    postings.push(term);
  }
  return topOf(postings, state.stats, depth, state);
}

const PLAIN_WORD = /^[a-z0-9]+$/;

/** This connection's state, brought up to the index as it is now. */
function current(statements: StatementCache, version: number): PostingsState {
  const own = fullTextChanges(statements);
  const known = states.get(statements);
  if (known !== undefined && known.version === version && known.own === own) return known;
  const rewrites = fullTextRewrites(statements);
  const newestRid = (statements.get("SELECT max(rid) FROM memories").pluck().get() as number | null) ?? 0;
  if (known !== undefined && known.rewrites === rewrites && newestRid >= known.newestRid) {
    // Only additions since: the held postings are checked for new entries as they are used.
    Object.assign(known, { version, own, newestRid, stats: null });
    return known;
  }
  const state: PostingsState = {
    version,
    own,
    rewrites,
    newestRid,
    terms: new Map(),
    tooLarge: new Set(),
    lengths: known?.lengths.forget() ?? new EntryLengths(),
    stats: null,
    held: 0,
    scores: known?.scores ?? new Float64Array(0),
  };
  states.set(statements, state);
  return state;
}

/** A term's postings, current: held, checked for entries added since, or read. */
function held(
  statements: StatementCache,
  state: PostingsState,
  stem: string,
  word: string,
): TermPostings | null {
  if (state.tooLarge.has(stem)) return null;
  const met = state.terms.get(stem);
  const known = typeof met === "object" ? met : undefined;
  if (known && known.coveredRid >= state.newestRid) return known;
  if (known) state.held -= known.rids.length;
  const read =
    (known ? withAdditions(statements, known, word, state.lengths) : null) ??
    readPostings(statements, state.lengths, stem);
  if (read === null || read.rids.length > MAX_TERM_POSTINGS) {
    state.tooLarge.add(stem);
    state.terms.delete(stem);
    return null;
  }
  if (state.held + read.rids.length > MAX_POSTINGS_HELD || state.terms.size > MAX_TERMS_KNOWN) {
    // The postings of a query under way stay in its hands: only the state lets them go.
    state.terms = new Map();
    state.lengths.forget();
    state.held = 0;
  }
  state.terms.set(stem, read);
  state.held += read.rids.length;
  return read;
}

/** A term's entries from the index (fts5vocab's instance table), with their lengths. */
function readPostings(statements: StatementCache, lengths: EntryLengths, stem: string): TermPostings | null {
  ensureInstanceTable(statements);
  const newest = statements.get("SELECT max(rid) FROM memories").pluck();
  return newest.database.transaction(() =>
    readWhole(statements, lengths, stem, (newest.get() as number | null) ?? 0),
  )();
}

function readWhole(
  statements: StatementCache,
  lengths: EntryLengths,
  stem: string,
  coveredRid: number,
): TermPostings | null {
  // Every rowid read is at most coveredRid (one snapshot): a store past the arrays' bound keeps FTS5.
  if (coveredRid > MAX_ROWID_HELD) return null;
  const freqs = new Map<number, number>();
  for (const [rid, column, count] of statements
    .get("SELECT doc, col, count(*) FROM temp.claw_fts_instances WHERE term = ? GROUP BY doc, col")
    .raw()
    .iterate(stem) as Iterable<[number, string, number]>) {
    freqs.set(rid, (freqs.get(rid) ?? 0) + (WEIGHT_OF_COLUMN.get(column) ?? 1) * count);
  }
  const missing = [...freqs.keys()].filter((rid) => lengths.get(rid) < 0);
  if (missing.length > 0) readLengths(statements, missing, lengths);
  // An entry without a size row is not in the index (FTS5 would not return it).
  const rids = [...freqs.keys()].filter((rid) => lengths.get(rid) >= 0).sort((a, b) => a - b);
  return {
    rids: Int32Array.from(rids),
    freqs: Float64Array.from(rids, (rid) => freqs.get(rid) as number),
    lengths: Int32Array.from(rids, (rid) => lengths.get(rid)),
    coveredRid,
  };
}

const WEIGHT_OF_COLUMN = new Map<string, number>(
  FTS_COLUMNS.map((column, i) => [column, COLUMN_WEIGHTS[i] as number]),
);

/**
 * fts5Bm25Function over the postings; the depth best, rank ascending, ties by rowid. Scores add up
 * per entry in `scores` (indexed by rowid, zero when untouched: every part is positive).
 */
function topOf(
  postings: readonly TermPostings[],
  stats: { rows: number; avgdl: number },
  depth: number,
  state: PostingsState,
): RankedRids {
  const scores = scoresFor(state, postings);
  const touched: number[] = [];
  for (const term of postings) {
    const hits = term.rids.length;
    const idf = idfOf(stats.rows, hits);
    for (let j = 0; j < hits; j++) {
      const part = bm25Part(idf, term.freqs[j] as number, lengthNorm(term.lengths[j] as number, stats.avgdl));
      const rid = term.rids[j] as number;
      const before = scores[rid] as number;
      if (before === 0) touched.push(rid);
      scores[rid] = before + part;
    }
  }
  touched.sort((a, b) => (scores[b] as number) - (scores[a] as number) || a - b);
  const rids = touched.slice(0, depth);
  const ranks = rids.map((rid) => -1 * (scores[rid] as number));
  for (const rid of touched) scores[rid] = 0;
  return { rids, ranks };
}

/** The state's score array, long enough for every rowid of `postings`. */
function scoresFor(state: PostingsState, postings: readonly TermPostings[]): Float64Array {
  let highest = 0;
  for (const term of postings) highest = Math.max(highest, term.rids[term.rids.length - 1] ?? 0);
  if (state.scores.length <= highest)
    state.scores = new Float64Array(Math.max(highest + 1, state.scores.length * 2));
  return state.scores;
}

/** The index's instances (term, entry, column, offset) as a temp table of this connection. */
function ensureInstanceTable(statements: StatementCache): void {
  if (instanceTables.has(statements)) return;
  statements
    .get(
      "CREATE VIRTUAL TABLE IF NOT EXISTS temp.claw_fts_instances USING fts5vocab(main, memories_fts, instance)",
    )
    .run();
  instanceTables.add(statements);
}
