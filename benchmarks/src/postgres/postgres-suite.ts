import { join } from "node:path";
import type { EmbeddingProvider, Memory } from "@claw/memory-api";
import {
  createHashingEmbeddingProvider,
  DEFAULT_CONFIG,
  type MemorySettings,
  SqliteMemory,
} from "@claw/memory-core";
import { PostgresMemory } from "@claw/memory-postgres";
import { servePglite } from "@claw/memory-postgres/pglite-server";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import pg from "pg";
import { createCorpus } from "../speed/corpus.js";
import { percentile } from "../stats.js";
import { type Figure, figure, type Suite, type SuiteOutput } from "../suite.js";

const SIZES = { ci: 2_000, full: 100_000 } as const;
const QUERIES = { ci: 100, full: 300 } as const;
/** Queries of other sets run before each timed set (as the speed suite does): caches and plans warm. */
const WARMUP = { ci: 20, full: 50 } as const;
const STORES = { ci: 100, full: 300 } as const;
const DIMENSIONS = 64;

interface Backend {
  name: string;
  open(embeddings: EmbeddingProvider, settings: MemorySettings): Promise<Memory>;
  close(): Promise<void>;
  /** Statements sent to the database so far (PostgreSQL: each one a round trip). */
  statements?: () => number;
}

/** A pool whose every statement is counted: a single store()'s round trips, for the report. */
function countingPool(url: string): { pool: pg.Pool; count: () => number } {
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
async function measure(
  memory: Memory,
  entries: Array<{ key: string; content: string }>,
  queries: { rare: string[]; typed: string[]; warmup: string[] },
  stores: number,
  statements?: () => number,
) {
  let start = performance.now();
  for (let i = 0; i < entries.length; i += 1_000) await memory.import(entries.slice(i, i + 1_000));
  await memory.flush();
  const importPerS = entries.length / ((performance.now() - start) / 1000);
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
  return { importPerS, keyword, hybrid, keywordTyped, hybridTyped, store, storeStatements };
}

/** Single-store p50 with deferred embedding (the default): the vector is written in the background. */
async function measureDeferredStore(memory: Memory, stores: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < stores; i++) {
    const start = performance.now();
    await memory.store(`deferred-${i}`, `a deferred note ${i}`, { category: "daily" });
    times.push(performance.now() - start);
  }
  await memory.flush();
  return percentile(times, 50);
}

/** Closes every backend (the server's schema dropped) even when another fails to; rethrows the first failure. */
async function closeAll(backends: Backend[]): Promise<void> {
  const closed = await Promise.allSettled(backends.map((backend) => backend.close()));
  const failed = closed.find((result): result is PromiseRejectedResult => result.status === "rejected");
  if (failed !== undefined) throw failed.reason;
}

/** Drops a schema the suite made on a real server, with everything in it. */
async function dropSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

/**
 * The PostgreSQL backend beside SQLite on the same corpus, queries and embedder (a 64-dim hashing
 * embedder, so both run offline): PGlite (embedded PostgreSQL + pgvector over a loopback socket)
 * (unless CLAW_BENCH_PGLITE=0), and a real server when CLAW_MEMORY_PG_URL is set. Recall caches are off, so every
 * recall reaches the database.
 */
export const postgresSuite: Suite = {
  name: "postgres",
  description: "PostgreSQL (PGlite, and a server when CLAW_MEMORY_PG_URL is set) beside SQLite",
  async run(ctx): Promise<SuiteOutput> {
    const size = SIZES[ctx.profile];
    const label = `${size / 1000}k`;
    // Content words from the top of the Zipf law, as in an agent's store (the speed suite's common corpus).
    const corpus = createCorpus({ size, dimensions: 8, seed: 21, text: "common" });
    const entries = Array.from({ length: size }, (_, i) => ({ key: `k${i}`, content: corpus.sentenceAt(i) }));
    const queries = {
      rare: corpus.queries(QUERIES[ctx.profile]).map((q) => q.text),
      typed: corpus.queries(QUERIES[ctx.profile], { style: "typed", salt: 1 }).map((q) => q.text),
      warmup: corpus.queries(WARMUP[ctx.profile], { style: "typed", salt: 2 }).map((q) => q.text),
    };
    const settings = { ...DEFAULT_CONFIG.memory, hotCacheSize: 0, deferEmbedding: false };
    const deferred = { ...settings, deferEmbedding: true };

    const backends: Backend[] = [
      {
        name: "sqlite",
        open: async (embeddings, settings) =>
          SqliteMemory.open({ path: join(ctx.workDir, "postgres-suite.db"), settings, embeddings }),
        close: async () => {},
      },
    ];
    // CLAW_BENCH_PGLITE=0 leaves PGlite out: at 100k it takes longer than the rest together.
    if (process.env.CLAW_BENCH_PGLITE !== "0") {
      const pglite = await PGlite.create({ extensions: { vector } });
      const socket = await servePglite(pglite);
      const pglitePool = countingPool(socket.url);
      backends.push({
        name: "pglite",
        open: (embeddings, settings) => PostgresMemory.open({ pool: pglitePool.pool, settings, embeddings }),
        close: async () => {
          await pglitePool.pool.end();
          await socket.close();
          await pglite.close();
        },
        statements: pglitePool.count,
      });
    }
    const serverUrl = process.env.CLAW_MEMORY_PG_URL;
    if (serverUrl) {
      const schema = `claw_bench_${Date.now()}`;
      const serverPool = countingPool(serverUrl);
      backends.push({
        name: "server",
        open: (embeddings, settings) =>
          PostgresMemory.open({ pool: serverPool.pool, schema, settings, embeddings }),
        // The server is not ours: nothing of the run stays there.
        close: async () => {
          await serverPool.pool.end();
          await dropSchema(serverUrl, schema);
        },
        statements: serverPool.count,
      });
    }

    const figures: Figure[] = [];
    const add = (id: string, value: number, unit: string, better: Figure["better"]) =>
      figures.push(figure(`postgres.${label}.${id}`, value, unit, better));
    const results = new Map<string, Awaited<ReturnType<typeof measure>> & { storeDeferred: number }>();
    try {
      for (const backend of backends) {
        ctx.log(`postgres ${label}: ${backend.name}`);
        const embeddings = createHashingEmbeddingProvider({ dimensions: DIMENSIONS });
        const memory = await backend.open(embeddings, settings);
        let r: Awaited<ReturnType<typeof measure>>;
        try {
          if (backend.name === "server") await memory.purgeNamespace("default");
          r = await measure(memory, entries, queries, STORES[ctx.profile], backend.statements);
        } finally {
          await memory.close();
        }
        const again = await backend.open(embeddings, deferred);
        let storeDeferred: number;
        try {
          storeDeferred = await measureDeferredStore(again, STORES[ctx.profile]);
        } finally {
          await again.close();
        }
        results.set(backend.name, { ...r, storeDeferred });
        add(`${backend.name}.import_per_s`, r.importPerS, "entries/s", "higher");
        add(`${backend.name}.keyword_p50_ms`, r.keyword, "ms", "lower");
        add(`${backend.name}.hybrid_p50_ms`, r.hybrid, "ms", "lower");
        add(`${backend.name}.keyword_typed_p50_ms`, r.keywordTyped, "ms", "lower");
        add(`${backend.name}.hybrid_typed_p50_ms`, r.hybridTyped, "ms", "lower");
        add(`${backend.name}.store_p50_ms`, r.store, "ms", "lower");
        add(`${backend.name}.store_deferred_p50_ms`, storeDeferred, "ms", "lower");
        if (r.storeStatements !== undefined)
          add(`${backend.name}.store_statements`, r.storeStatements, "statements", "lower");
      }
    } finally {
      await closeAll(backends);
    }
    const sqlite = results.get("sqlite");
    for (const name of ["pglite", "server"]) {
      const other = results.get(name);
      if (!sqlite || !other) continue;
      add(`ratio.${name}_vs_sqlite.hybrid_p50`, other.hybrid / sqlite.hybrid, "×", "lower");
      add(`ratio.${name}_vs_sqlite.keyword_p50`, other.keyword / sqlite.keyword, "×", "lower");
      add(
        `ratio.${name}_vs_sqlite.keyword_typed_p50`,
        other.keywordTyped / sqlite.keywordTyped,
        "×",
        "lower",
      );
    }
    return {
      figures,
      charts: [],
      tables: [
        {
          title: `PostgreSQL beside SQLite at ${label} entries × ${DIMENSIONS} dims`,
          docs: "postgres",
          columns: [
            "backend",
            "import (entries/s)",
            "keyword p50 (ms)",
            "hybrid p50 (ms)",
            "keyword p50, typed (ms)",
            "hybrid p50, typed (ms)",
            "store p50 (ms)",
            "statements per store",
            "store p50, deferred (ms)",
          ],
          rows: [...results].map(([name, r]) => [
            name,
            r.importPerS,
            r.keyword,
            r.hybrid,
            r.keywordTyped,
            r.hybridTyped,
            r.store,
            r.storeStatements ?? "—",
            r.storeDeferred,
          ]),
          note:
            "Same corpus (the speed suite's common text: content words from the top of the Zipf law, its top word in ~78 % of entries), queries and hashing embedder for every backend; rare: 2–5 words mostly of one entry; typed: 3–5 words, 1–2 of one entry, the rest from the whole Zipf law; recall cache off; each timed set follows 50 other typed queries in the same mode (20 in ci), as in the speed suite; PGlite is PostgreSQL compiled to WebAssembly behind a loopback socket, so a real server is faster. " +
            "store p50: a store() that embeds before it returns (defer_embedding off): the vector is computed first (the embedding cache looked up) and written with the row by the upsert, which also writes the cache's new entry and moves the change stamp; each statement is a round trip. " +
            "Deferred: a store() with defer_embedding on, the default (one statement, the upsert; the vector is written in the background).",
        },
      ],
    };
  },
};
