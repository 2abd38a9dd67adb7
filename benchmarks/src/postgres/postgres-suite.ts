import { createHashingEmbeddingProvider, DEFAULT_CONFIG } from "@claw/memory-core";
import { createCorpus } from "../speed/corpus.js";
import { type Figure, figure, type Profile, type Suite, type SuiteOutput, type TableSpec } from "../suite.js";
import { closeAll, openBackends } from "./bench-backends.js";
import {
  type Measured,
  measure,
  measureDeferredStore,
  measureImportFlushed,
  measureMigrate,
  type Queries,
} from "./measure-backend.js";
import { recallGrowth, sizeLabel } from "./recall-growth.js";

/** Corpus sizes per profile; `large` measures 100k again in the same run, the baseline of 1M's figures. */
export const POSTGRES_SIZES = { ci: [2_000], full: [100_000], large: [100_000, 1_000_000] } as const;
const QUERIES = { ci: 100, full: 300, large: 300 } as const;
/** Queries of other sets run before each timed set (as the speed suite does): caches and plans warm. */
const WARMUP = { ci: 20, full: 50, large: 50 } as const;
const STORES = { ci: 100, full: 300, large: 300 } as const;
const DIMENSIONS = 64;
/**
 * The deferred import and the migrate from SQLite are measured up to this size. At 1M each is another
 * full import with its HNSW build (~20 min apiece on 2 cores), and the 1M import already measures the
 * bulk path; the migrate figure is at 100k.
 */
const BULK_EXTRAS_UP_TO = 100_000;
/**
 * The import at a provider's width (OpenAI's text-embedding-3-small: 1,536 dims), into an empty
 * store: the vectors are 24× the bytes of the corpus's, to send, store, analyse and index.
 */
const WIDE_DIMENSIONS = 1_536;
const WIDE_ENTRIES = { ci: 500, full: 10_000, large: 10_000 } as const;

type Results = Map<
  string,
  Measured & {
    storeDeferred: number;
    importDeferredPerS: number | undefined;
    migratePerS: number | undefined;
    importWidePerS: number | undefined;
  }
>;

/** Every backend at one corpus size: its figures and its results by backend name. */
async function runAtSize(
  ctx: { profile: Profile; workDir: string; log: (message: string) => void },
  size: number,
): Promise<{ results: Results; figures: Figure[] }> {
  const label = sizeLabel(size);
  // Content words from the top of the Zipf law, as in an agent's store (the speed suite's common corpus).
  const corpus = createCorpus({ size, dimensions: 8, seed: 21, text: "common" });
  const entries = Array.from({ length: size }, (_, i) => ({ key: `k${i}`, content: corpus.sentenceAt(i) }));
  const queries: Queries = {
    rare: corpus.queries(QUERIES[ctx.profile]).map((q) => q.text),
    typed: corpus.queries(QUERIES[ctx.profile], { style: "typed", salt: 1 }).map((q) => q.text),
    warmup: corpus.queries(WARMUP[ctx.profile], { style: "typed", salt: 2 }).map((q) => q.text),
  };
  const settings = { ...DEFAULT_CONFIG.memory, hotCacheSize: 0, deferEmbedding: false };
  const deferred = { ...settings, deferEmbedding: true };
  const backends = await openBackends({
    workDir: ctx.workDir,
    label,
    // PGlite takes longer at 100k than the rest together; CLAW_BENCH_PGLITE=0 leaves it out.
    pglite: ctx.profile !== "large" && process.env.CLAW_BENCH_PGLITE !== "0",
    serverUrl: process.env.CLAW_MEMORY_PG_URL,
  });
  const figures: Figure[] = [];
  const add = (id: string, value: number, unit: string, better: Figure["better"]) => {
    figures.push(figure(`postgres.${label}.${id}`, value, unit, better));
    // A large run takes over an hour: each figure is in the log as soon as it is measured.
    ctx.log(`postgres.${label}.${id} = ${value} ${unit}`);
  };
  const results: Results = new Map();
  try {
    for (const backend of backends) {
      ctx.log(`postgres ${label}: ${backend.name}`);
      const embeddings = createHashingEmbeddingProvider({ dimensions: DIMENSIONS });
      const memory = await backend.open(embeddings, settings);
      let r: Measured;
      try {
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
      // Into empty stores: an import as the defaults make it, and SQLite's store (measured
      // first) migrated into this backend.
      let importDeferredPerS: number | undefined;
      let migratePerS: number | undefined;
      let importWidePerS: number | undefined;
      if (backend.openEmpty !== undefined && size <= BULK_EXTRAS_UP_TO) {
        const empty = await backend.openEmpty(embeddings, deferred);
        const rate = await measureImportFlushed(empty, entries).finally(() => empty.close());
        importDeferredPerS = rate;
        add(`${backend.name}.import_deferred_per_s`, rate, "entries/s", "higher");
        const source = backends[0];
        if (source !== undefined && source !== backend) {
          const from = await source.open(embeddings, settings);
          const to = await backend.openEmpty(embeddings, settings);
          const rate = await measureMigrate(from, to).finally(async () => {
            await to.close();
            await from.close();
          });
          migratePerS = rate;
          add(`${backend.name}.migrate_per_s`, rate, "entries/s", "higher");
        }
        const wideEmbeddings = createHashingEmbeddingProvider({ dimensions: WIDE_DIMENSIONS });
        const wide = await backend.openEmpty(wideEmbeddings, settings);
        importWidePerS = await measureImportFlushed(
          wide,
          entries.slice(0, WIDE_ENTRIES[ctx.profile]),
        ).finally(() => wide.close());
        add(`${backend.name}.import_wide_per_s`, importWidePerS, "entries/s", "higher");
      }
      results.set(backend.name, { ...r, storeDeferred, importDeferredPerS, migratePerS, importWidePerS });
      add(`${backend.name}.import_per_s`, r.importPerS, "entries/s", "higher");
      add(`${backend.name}.import_rows_per_s`, r.importRowsPerS, "entries/s", "higher");
      add(`${backend.name}.import_flush_s`, r.flushS, "s", "lower");
      add(`${backend.name}.keyword_p50_ms`, r.keyword, "ms", "lower");
      add(`${backend.name}.hybrid_p50_ms`, r.hybrid, "ms", "lower");
      add(`${backend.name}.keyword_typed_p50_ms`, r.keywordTyped, "ms", "lower");
      add(`${backend.name}.hybrid_typed_p50_ms`, r.hybridTyped, "ms", "lower");
      add(`${backend.name}.store_p50_ms`, r.store, "ms", "lower");
      add(`${backend.name}.store_deferred_p50_ms`, storeDeferred, "ms", "lower");
      add(`${backend.name}.turn_p50_ms`, r.turn, "ms", "lower");
      if (r.storeStatements !== undefined)
        add(`${backend.name}.store_statements`, r.storeStatements, "statements", "lower");
      if (r.turnStatements !== undefined)
        add(`${backend.name}.turn_statements`, r.turnStatements, "statements", "lower");
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
    add(`ratio.${name}_vs_sqlite.keyword_typed_p50`, other.keywordTyped / sqlite.keywordTyped, "×", "lower");
  }
  return { results, figures };
}

function tableOf(profile: Profile, size: number, results: Results): TableSpec {
  return {
    title: `PostgreSQL beside SQLite at ${sizeLabel(size)} entries × ${DIMENSIONS} dims`,
    docs: profile === "large" ? "postgres-large" : "postgres",
    columns: [
      "backend",
      "import (entries/s)",
      "of which rows (entries/s)",
      "then flush (s)",
      "import, deferred (entries/s)",
      "migrate from SQLite (entries/s)",
      `import at ${WIDE_DIMENSIONS.toLocaleString("en-US")} dims (entries/s)`,
      "keyword p50 (ms)",
      "hybrid p50 (ms)",
      "keyword p50, typed (ms)",
      "hybrid p50, typed (ms)",
      "store p50 (ms)",
      "statements per store",
      "turn p50 (ms)",
      "statements per turn",
      "store p50, deferred (ms)",
    ],
    rows: [...results].map(([name, r]) => [
      name,
      r.importPerS,
      r.importRowsPerS,
      r.flushS,
      r.importDeferredPerS ?? "—",
      r.migratePerS ?? "—",
      r.importWidePerS ?? "—",
      r.keyword,
      r.hybrid,
      r.keywordTyped,
      r.hybridTyped,
      r.store,
      r.storeStatements ?? "—",
      r.turn,
      r.turnStatements ?? "—",
      r.storeDeferred,
    ]),
    note:
      (size > BULK_EXTRAS_UP_TO
        ? `Deferred import, migrate and the import at ${WIDE_DIMENSIONS.toLocaleString("en-US")} dims are measured up to ${sizeLabel(BULK_EXTRAS_UP_TO)} (each is another import with its HNSW build). `
        : "") +
      `Same corpus (the speed suite's common text: content words from the top of the Zipf law, its top word in ~78 % of entries), queries and hashing embedder for every backend; import: 1,000 entries per import(), then flush() (which builds the HNSW index an import set aside), in entries a second from the first import() until flush() returned; of which rows: until the last import() returned (every entry committed, found by keyword, and by vector through an exact scan until the index is built); these import with defer_embedding off, the vector computed before the write; deferred: the same into an empty store with the default defer_embedding on (rows first, vectors written in the background), until flush() returned; migrate: migrateMemory() of the SQLite store (the corpus and the writes below, with their vectors) into an empty store, 1,000 entries per batch, its closing flush() and check included; at ${WIDE_DIMENSIONS.toLocaleString("en-US")} dims: the first ${WIDE_ENTRIES[profile].toLocaleString("en-US")} entries imported as above (defer_embedding off, until flush() returned) into an empty store with a hashing embedder of that width, a provider's (OpenAI text-embedding-3-small); rare: 2–5 words mostly of one entry; typed: 3–5 words, 1–2 of one entry, the rest from the whole Zipf law; recall cache off; each timed set follows ${WARMUP[profile]} other typed queries in the same mode, as in the speed suite; PGlite is PostgreSQL compiled to WebAssembly behind a loopback socket, so a real server is faster. ` +
      "store p50: a store() that embeds before it returns (defer_embedding off): the vector is computed first (the embedding cache looked up) and written with the row by the upsert, which also writes the cache's new entry and moves the change stamp; each statement is a round trip. " +
      "Turn: such a store() of a chat turn (category conversation, ten turns per session), which also indexes the turn with the one before it. " +
      "Deferred: a store() with defer_embedding on, the default (one statement, the upsert; the vector is written in the background).",
  };
}

/**
 * The PostgreSQL backend beside SQLite on the same corpus, queries and embedder (a 64-dim hashing
 * embedder, so both run offline): PGlite (unless CLAW_BENCH_PGLITE=0 or the large profile), and a
 * real server when CLAW_MEMORY_PG_URL is set. Recall caches are off, so every recall reaches the
 * database. `large` measures 100k and 1M in one run and reports how recall grows between them.
 */
export const postgresSuite: Suite<Profile> = {
  name: "postgres",
  description: "PostgreSQL (PGlite, and a server when CLAW_MEMORY_PG_URL is set) beside SQLite",
  profiles: ["ci", "full", "large"],
  async run(ctx): Promise<SuiteOutput> {
    const bySize: Array<{ size: number; results: Results }> = [];
    const figures: Figure[] = [];
    for (const size of POSTGRES_SIZES[ctx.profile]) {
      const { results, figures: atSize } = await runAtSize(ctx, size);
      bySize.push({ size, results });
      figures.push(...atSize);
    }
    const growth = recallGrowth(bySize);
    figures.push(...growth.figures);
    const tables = bySize.map(({ size, results }) => tableOf(ctx.profile, size, results));
    if (growth.table !== null) tables.push(growth.table);
    return { figures, charts: [], tables };
  },
};
