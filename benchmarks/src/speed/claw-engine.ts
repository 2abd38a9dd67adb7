/**
 * claw's SQLite store under test: bulk import (keyword-only and with vectors), recall in the three
 * modes, and single deferred store() calls, all through the public SqliteMemory API.
 */
import { existsSync, rmSync, statSync } from "node:fs";
import type { MemoryEntry, SearchMode, WhereFilter } from "@claw/memory-api";
import { DEFAULT_CONFIG, type MemorySettings, SqliteMemory } from "@claw/memory-core";
import type { Corpus, CorpusQuery } from "./corpus.js";
import type { PrecomputedEmbeddings } from "./precomputed-embeddings.js";

/**
 * `ftsEarlyReturnScore: 1` makes hybrid always run its vector stage (no keyword short cut), and
 * the hot cache is off so that every timed recall reaches the database.
 */
export const CLAW_SETTINGS: MemorySettings = {
  ...DEFAULT_CONFIG.memory,
  ftsEarlyReturnScore: 1,
  hotCacheSize: 0,
};

/** Entries per import() call: one transaction each, and a bounded array of validated writes. */
export const IMPORT_CHUNK = 50_000;

type ImportEntry = Partial<MemoryEntry>;

/**
 * The metadata of entry `i` when an import carries metadata: a project (10 of them, so a filter on
 * one keeps 10 %) and a tier ("gold" for 2 % of entries), independent of the text and the vector.
 */
export function metadataAt(i: number): { project: string; tier: string } {
  return { project: `p${i % 10}`, tier: i % 50 === 7 ? "gold" : "std" };
}

/** The `where` filters the speed suite times, by the share of entries they keep. */
export const WHERE_FILTERS = {
  where10: { project: "p3" },
  where2: { tier: "gold" },
} as const;

/** What an import of the corpus carries besides keys and text. */
export interface ImportShape {
  /** Vectors (row-major, whole corpus). */
  matrix?: Float32Array;
  /** metadataAt(i) for entry i. */
  withMetadata?: boolean;
  /**
   * createdAt and updatedAt, spread evenly over the year before DATED_UNTIL in corpus order, as an
   * export carries them (each entry is then indexed with its own day's date forms).
   */
  dated?: boolean;
}

/** The end of the year a dated import spans. */
const DATED_UNTIL_MS = Date.UTC(2026, 10, 1);
const YEAR_MS = 365 * 86_400_000;

/** Entries `from .. to-1` as import() takes them. */
export function importEntries(
  corpus: Corpus,
  from: number,
  to: number,
  shape: ImportShape = {},
): ImportEntry[] {
  const { dimensions, size } = corpus;
  const { matrix, withMetadata = false, dated = false } = shape;
  const entries: ImportEntry[] = [];
  for (let i = from; i < to; i++) {
    const entry: ImportEntry = { key: corpus.keyAt(i), content: corpus.sentenceAt(i), category: "core" };
    if (matrix !== undefined) entry.embedding = matrix.subarray(i * dimensions, (i + 1) * dimensions);
    if (withMetadata) entry.metadata = metadataAt(i);
    if (dated) {
      const at = new Date(DATED_UNTIL_MS - YEAR_MS + Math.floor((i * YEAR_MS) / size)).toISOString();
      entry.createdAt = at;
      entry.updatedAt = at;
    }
    entries.push(entry);
  }
  return entries;
}

/**
 * Imports the whole corpus in calls of `chunk` entries and returns the seconds spent inside import(), and in the
 * flush() after the last chunk: the entries of a chunk are generated before its clock starts, and
 * the log checkpoint a bulk import leaves to a worker thread is timed where it was not overlapped
 * (what a caller waiting for a settled store sees), so recall is then timed on a settled store.
 */
export async function importCorpus(
  memory: SqliteMemory,
  corpus: Corpus,
  shape: ImportShape = {},
  chunk = IMPORT_CHUNK,
): Promise<number> {
  let nanos = 0n;
  for (let from = 0; from < corpus.size; from += chunk) {
    const to = Math.min(corpus.size, from + chunk);
    const entries = importEntries(corpus, from, to, shape);
    const start = process.hrtime.bigint();
    await memory.import(entries);
    nanos += process.hrtime.bigint() - start;
  }
  const start = process.hrtime.bigint();
  await memory.flush();
  nanos += process.hrtime.bigint() - start;
  return Number(nanos) / 1e9;
}

/** A store without an embedding provider: keyword recall only, as the keyword figures measure. */
export function openKeywordClaw(path: string): SqliteMemory {
  return SqliteMemory.open({ path, embeddings: null, settings: CLAW_SETTINGS });
}

/**
 * Keyword-only bulk import into a fresh database at `path` (deleted afterwards), of entries dated
 * as an export dates them: entries/s.
 */
export async function measureKeywordImport(path: string, corpus: Corpus, runs = 1): Promise<number[]> {
  const rates: number[] = [];
  for (let run = 0; run < runs; run++) {
    const memory = openKeywordClaw(path);
    try {
      const seconds = await importCorpus(memory, corpus, { dated: true });
      rates.push(corpus.size / Math.max(seconds, 1e-9));
    } finally {
      await memory.close();
      removeDatabase(path);
    }
  }
  return rates;
}

export function openClaw(path: string, embeddings: PrecomputedEmbeddings): SqliteMemory {
  return SqliteMemory.open({ path, embeddings, settings: CLAW_SETTINGS });
}

/** Corpus indexes of claw's top k for `text` (keys are `m<index>`), optionally filtered on metadata. */
export async function clawRecall(
  memory: SqliteMemory,
  text: string,
  mode: SearchMode,
  k: number,
  where?: WhereFilter,
) {
  const entries = await memory.recall(text, { mode, limit: k, ...(where === undefined ? {} : { where }) });
  return entries.map((e) => Number(e.key.slice(1)));
}

/**
 * `count` single store() calls of new entries (indexes after the corpus), each timed alone. The
 * deferred vector is written between calls, off the clock, as it would be between an agent's
 * turns: the figure is what the caller waits for.
 */
export async function measureStores(
  memory: SqliteMemory,
  corpus: Corpus,
  embeddings: PrecomputedEmbeddings,
  count: number,
): Promise<number[]> {
  const times: number[] = [];
  for (let j = 0; j < count; j++) {
    const probe = probeAt(corpus, embeddings, corpus.size + j);
    const start = process.hrtime.bigint();
    await memory.store(probe.key, probe.content);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
    await memory.flush();
  }
  return times;
}

/** Entry `index` (past the corpus) to store, its vector given to the embedder first. */
function probeAt(corpus: Corpus, embeddings: PrecomputedEmbeddings, index: number) {
  const probe = { key: corpus.keyAt(index), content: corpus.sentenceAt(index) };
  embeddings.set(probe.content, corpus.vectorAt(index));
  return probe;
}

/**
 * Recall timed right after a store() of a new entry (indexes after the corpus from `from` on, the
 * store and its embedding untimed), as an agent recalls after writing its turn: each write drops
 * what the connection kept for recall (the rows it read, the hot cache of results).
 */
export async function measureRecallsAfterStores(
  memory: SqliteMemory,
  corpus: Corpus,
  embeddings: PrecomputedEmbeddings,
  queries: readonly CorpusQuery[],
  recall: (query: CorpusQuery) => Promise<unknown>,
  from: number,
): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < queries.length; i++) {
    const probe = probeAt(corpus, embeddings, corpus.size + from + i);
    await memory.store(probe.key, probe.content);
    await memory.flush();
    const start = process.hrtime.bigint();
    await recall(queries[i] as CorpusQuery);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return times;
}

/** Bytes of the database file and of its write-ahead log (absent after a checkpoint on close). */
export function databaseBytes(path: string): { file: number; wal: number } {
  const size = (file: string) => (existsSync(file) ? statSync(file).size : 0);
  return { file: size(path), wal: size(`${path}-wal`) };
}

export function removeDatabase(path: string): void {
  for (const file of [path, `${path}-wal`, `${path}-shm`]) rmSync(file, { force: true });
}
