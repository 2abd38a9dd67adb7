import type { EmbeddingProvider, Memory } from "@claw/memory-api";
import { type MemorySettings, migrateMemory } from "@claw/memory-core";
import pg from "pg";
import { percentile } from "../stats.js";

/** One store the suite measures: SQLite, PGlite or a real server. */
export interface Backend {
  name: string;
  open(embeddings: EmbeddingProvider, settings: MemorySettings): Promise<Memory>;
  close(): Promise<void>;
  /** Another store on the same database, empty (a migration's target); absent: not measured. */
  openEmpty?(embeddings: EmbeddingProvider, settings: MemorySettings): Promise<Memory>;
  /** Statements sent to the database so far (PostgreSQL: each one a round trip). */
  statements?: () => number;
}

export interface Queries {
  rare: string[];
  typed: string[];
  warmup: string[];
}

/** What measure() reports of one backend. */
export interface Measured {
  /** Entries a second from the first import() until flush() returned (vector index built). */
  importPerS: number;
  /** Entries a second until the last import() returned: committed, found by keyword and by vector. */
  importRowsPerS: number;
  /** flush() after the import: the vector index an import set aside is built (s). */
  flushS: number;
  keyword: number;
  hybrid: number;
  keywordTyped: number;
  hybridTyped: number;
  store: number;
  storeStatements: number | undefined;
  /** store() p50 of a chat turn (category conversation, ten turns per session). */
  turn: number;
  turnStatements: number | undefined;
}

/** A pool whose every statement is counted: a single store()'s round trips, for the report. */
export function countingPool(url: string): { pool: pg.Pool; count: () => number } {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  let sent = 0;
  pool.on("connect", (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      sent++;
      return query(...args);
    };
  });
  return { pool, count: () => sent };
}

/** Import rate, keyword / hybrid recall p50 (both query sets) and single-store p50 of one backend. */
export async function measure(
  memory: Memory,
  entries: Array<{ key: string; content: string }>,
  queries: Queries,
  stores: number,
  statements?: () => number,
): Promise<Measured> {
  let start = performance.now();
  await importInBatches(memory, entries);
  const imported = performance.now();
  await memory.flush();
  const importPerS = entries.length / ((performance.now() - start) / 1000);
  const importRowsPerS = entries.length / ((imported - start) / 1000);
  const flushS = (performance.now() - imported) / 1000;
  const timed = async (op: (i: number) => Promise<unknown>, count: number) => {
    const times: number[] = [];
    for (let i = 0; i < count; i++) {
      start = performance.now();
      await op(i);
      times.push(performance.now() - start);
    }
    return percentile(times, 50);
  };
  const recall = async (set: string[], mode: "bm25" | "hybrid") => {
    for (const query of queries.warmup) await memory.recall(query, { mode });
    return timed((i) => memory.recall(set[i] as string, { mode }), set.length);
  };
  const keyword = await recall(queries.rare, "bm25");
  const hybrid = await recall(queries.rare, "hybrid");
  const keywordTyped = await recall(queries.typed, "bm25");
  const hybridTyped = await recall(queries.typed, "hybrid");
  const before = statements?.() ?? 0;
  const store = await timed(
    (i) => memory.store(`extra-${i}`, `an extra note ${i}`, { category: "daily" }),
    stores,
  );
  const storeStatements = statements === undefined ? undefined : (statements() - before) / stores;
  const beforeTurns = statements?.() ?? 0;
  const turn = await timed(
    (i) =>
      memory.store(`turn-${i}`, `turn ${i % 10} of chat ${Math.floor(i / 10)}: a reply`, {
        category: "conversation",
        sessionId: `chat-${Math.floor(i / 10)}`,
      }),
    stores,
  );
  const turnStatements = statements === undefined ? undefined : (statements() - beforeTurns) / stores;
  return {
    importPerS,
    importRowsPerS,
    flushS,
    keyword,
    hybrid,
    keywordTyped,
    hybridTyped,
    store,
    storeStatements,
    turn,
    turnStatements,
  };
}

/** Single-store p50 with deferred embedding (the default): the vector is written in the background. */
export async function measureDeferredStore(memory: Memory, stores: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < stores; i++) {
    const start = performance.now();
    await memory.store(`deferred-${i}`, `a deferred note ${i}`, { category: "daily" });
    times.push(performance.now() - start);
  }
  await memory.flush();
  return percentile(times, 50);
}

/**
 * An import into an empty store, 1,000 entries per import(), until flush() returned (with the
 * defaults' deferred embedding: rows first, vectors in the background): entries a second.
 */
export async function measureImportFlushed(
  memory: Memory,
  entries: ReadonlyArray<{ key: string; content: string }>,
): Promise<number> {
  const start = performance.now();
  await importInBatches(memory, entries);
  await memory.flush();
  return entries.length / ((performance.now() - start) / 1000);
}

/**
 * migrateMemory() of `from` (every entry with its vector) into an empty store, until it returned
 * (its flush() included): entries a second.
 */
export async function measureMigrate(from: Memory, to: Memory): Promise<number> {
  const start = performance.now();
  const report = await migrateMemory(from, to, { batchSize: 1_000 });
  return report.copied / ((performance.now() - start) / 1000);
}

/** `entries` imported 1,000 per import(), as the suite's imports are. */
async function importInBatches(
  memory: Memory,
  entries: ReadonlyArray<{ key: string; content: string }>,
): Promise<void> {
  for (let i = 0; i < entries.length; i += 1_000) await memory.import(entries.slice(i, i + 1_000));
}
