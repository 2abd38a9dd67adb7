/**
 * One corpus size, every engine on the same data: generate, load, warm up, time the queries, and
 * turn the latencies into the `speed.<size>.*` figures (ratios included, from this same run). The
 * default corpus first, then (when planned) the other distributions, one matrix at a time.
 */
import { join } from "node:path";
import type { SearchMode, WhereFilter } from "@claw/memory-api";
import { percentile, summarize } from "../stats.js";
import type { Figure, SuiteContext } from "../suite.js";
import {
  clawRecall,
  databaseBytes,
  importCorpus,
  measureKeywordImport,
  measureRecallsAfterStores,
  measureStores,
  openClaw,
  removeDatabase,
  WHERE_FILTERS,
} from "./claw-engine.js";
import { type CorpusQuery, createCorpus } from "./corpus.js";
import { withFullScan } from "./fullscan-engine.js";
import { createJsScan, overlapAt } from "./js-scan-engine.js";
import {
  EXTRA_VECTOR_DISTRIBUTIONS,
  measureCommonKeyword,
  measureVectorDistribution,
} from "./measure-distributions.js";
import { createOramaEngine } from "./orama-engine.js";
import { createPlainFts } from "./plain-fts-engine.js";
import { createPrecomputedEmbeddings } from "./precomputed-embeddings.js";
import { addRatios, createSizeFigures, type SizeFigures } from "./size-figures.js";
import type { SizePlan } from "./size-plan.js";
import { RATIO_BLOCKS, type Timed, timeEnginesInBlocks, timeQueries } from "./time-queries.js";

export interface SizeResult {
  plan: SizePlan;
  figures: Figure[];
  /** What was skipped or differs at this size, for the table note. */
  notes: string[];
  /** What describes the extra distributions (how common the `common` corpus's top words are). */
  corpusNotes: string[];
  seconds: number;
}

const K = 10;
const MB = 1024 * 1024;
/** Sizes up to this have their keyword-only import timed three times (the median is reported). */
const KEYWORD_IMPORT_REPEAT_MAX = 100_000;

export async function measureSize(
  plan: SizePlan,
  ctx: Pick<SuiteContext, "workDir" | "log">,
): Promise<SizeResult> {
  const began = process.hrtime.bigint();
  const out = createSizeFigures(plan.label);
  const notes: string[] = [];
  const corpusNotes: string[] = [];
  // Separate calls, so that the default corpus's matrix is garbage before the next one is built.
  await measureDefaultCorpus(plan, ctx, out, notes);
  if (plan.distributions) {
    corpusNotes.push(await measureCommonKeyword(plan, ctx, out));
    for (const vectors of EXTRA_VECTOR_DISTRIBUTIONS)
      await measureVectorDistribution(plan, vectors, ctx, out);
  }
  addRatios(out);
  const seconds = Number(process.hrtime.bigint() - began) / 1e9;
  return { plan, figures: out.figures, notes, corpusNotes, seconds };
}

/** Every engine on the default corpus (`stopwords` text, `clustered` vectors, rare queries). */
async function measureDefaultCorpus(
  plan: SizePlan,
  ctx: Pick<SuiteContext, "workDir" | "log">,
  out: SizeFigures,
  notes: string[],
): Promise<void> {
  const { label, size, dimensions } = plan;
  const log = (message: string) => ctx.log(`speed ${label}: ${message}`);
  const { add, latency } = out;

  log(`generating ${size} entries × ${dimensions} dims`);
  const corpus = createCorpus({ size, dimensions, seed: plan.seed });
  const all = corpus.queries(plan.warmup + Math.max(plan.queries, plan.vectorQueries));
  const warmup = all.slice(0, plan.warmup);
  const keywordQueries = all.slice(plan.warmup, plan.warmup + plan.queries);
  const vectorQueries = all.slice(plan.warmup, plan.warmup + plan.vectorQueries);
  // The one copy of the corpus vectors: claw and the full scan read views of it, js-scan scans it.
  const matrix = corpus.fillVectors(0, size);

  // One import of a few seconds is one sample of the machine's phase: up to 100k entries, the
  // median of three into a fresh store each (1M is imported once: ~25 s).
  const runs = size <= KEYWORD_IMPORT_REPEAT_MAX ? 3 : 1;
  log(`claw keyword-only import (${runs === 1 ? "once" : `${runs} times`})`);
  const rates = await measureKeywordImport(join(ctx.workDir, `claw-kw-${label}.db`), corpus, runs);
  if (runs > 1) log(`claw keyword-only import: ${rates.map((r) => Math.round(r)).join(", ")} entries/s`);
  add("claw.import_per_s", percentile(rates, 50), "entries/s", "higher");

  log("claw import with vectors");
  const embeddings = createPrecomputedEmbeddings({
    dimensions,
    entries: all.map((q) => [q.text, q.vector] as const),
  });
  const clawPath = join(ctx.workDir, `claw-${label}.db`);
  const memory = openClaw(clawPath, embeddings);
  let vectorTimes: Timed<number[]>;
  try {
    // With metadata (a project and a tier per entry), so that filtered recall can be timed.
    const importSeconds = await importCorpus(memory, corpus, { matrix, withMetadata: true });
    add("claw.import_vectors_per_s", size / Math.max(importSeconds, 1e-9), "entries/s", "higher");
    // Garbage (of the import, of a previous size) would blur the figure: collect it when node
    // allows (--expose-gc). A difference against an RSS taken before the load is not reported: the
    // allocator returns freed memory to the system at its own pace, so such deltas even go negative.
    (globalThis as { gc?: () => void }).gc?.();
    add("claw.rss_mb", process.memoryUsage.rss() / MB, "MB", "lower");

    // Each mode unfiltered and under the two metadata filters in alternating blocks: the gated
    // filtered ÷ unfiltered ratios then compare the same minutes of the machine.
    const { where10, where2 } = WHERE_FILTERS;
    const recall = (mode: SearchMode, where?: WhereFilter) => (q: CorpusQuery) =>
      clawRecall(memory, q.text, mode, K, where);
    log(`claw keyword recall (${plan.queries} queries), unfiltered and filtered, in alternating blocks`);
    const [keyword, keyword10, keyword2] = await timeEnginesInBlocks(
      warmup,
      keywordQueries,
      [recall("bm25"), recall("bm25", where10), recall("bm25", where2)],
      RATIO_BLOCKS,
    );
    latency("claw.keyword", summarize(keyword.times), true);
    latency("claw.keyword.where10", summarize(keyword10.times), false);
    latency("claw.keyword.where2", summarize(keyword2.times), false);
    // The same queries twice more, the second time timed: a store that has served them has met
    // their words twice, and ranks them from the postings it then reads and holds
    // (bm25-postings.ts), as a long-running server does for the words its users keep using.
    log("claw keyword recall, the same queries twice more");
    const repeat = await timeQueries(keywordQueries, keywordQueries, recall("bm25"));
    latency("claw.keyword.repeat", summarize(repeat.times), false);
    // The full scan is loaded beside claw, so that the two are timed in alternating blocks.
    log("claw vector and hybrid (unfiltered and filtered), and the full scan, in alternating blocks");
    const [vector, hybrid, scanned, vector10, hybrid10, vector2, hybrid2] = await withFullScan(
      join(ctx.workDir, `fullscan-${label}.db`),
      matrix,
      dimensions,
      (full) =>
        timeEnginesInBlocks(
          warmup,
          vectorQueries,
          [
            recall("embedding"),
            recall("hybrid"),
            (q) => full.search(q.vector, K),
            recall("embedding", where10),
            recall("hybrid", where10),
            recall("embedding", where2),
            recall("hybrid", where2),
          ],
          RATIO_BLOCKS,
        ),
    );
    vectorTimes = vector;
    latency("claw.vector", summarize(vector.times), true);
    latency("claw.hybrid", summarize(hybrid.times), true);
    latency("fullscan.vector", summarize(scanned.times), false);
    latency("claw.vector.where10", summarize(vector10.times), false);
    latency("claw.hybrid.where10", summarize(hybrid10.times), false);
    latency("claw.vector.where2", summarize(vector2.times), false);
    latency("claw.hybrid.where2", summarize(hybrid2.times), false);

    log(`claw store() × ${plan.stores}`);
    latency("claw.store", summarize(await measureStores(memory, corpus, embeddings, plan.stores)), false);
    log(`claw keyword recall (${plan.stores} of the queries), each right after a store()`);
    const afterStore = await measureRecallsAfterStores(
      memory,
      corpus,
      embeddings,
      keywordQueries.slice(0, plan.stores),
      recall("bm25"),
      plan.stores,
    );
    latency("claw.keyword.after_store", summarize(afterStore), false);
    const bytes = databaseBytes(clawPath);
    add("claw.db_mb", (bytes.file + bytes.wal) / MB, "MB", "lower");
    add("claw.wal_mb", bytes.wal / MB, "MB", "lower");
  } finally {
    await memory.close();
    removeDatabase(clawPath);
  }

  log("plain FTS5");
  const ftsPath = join(ctx.workDir, `plain-fts-${label}.db`);
  const fts = createPlainFts(ftsPath, corpus);
  try {
    const timed = await timeQueries(warmup, keywordQueries, (q) => fts.search(q.text, K));
    latency("plain-fts.keyword", summarize(timed.times), true);
  } finally {
    fts.close();
    removeDatabase(ftsPath);
  }

  // The exact top 10 for recall@10, from the JavaScript scan (timed as an engine when planned).
  log(plan.jsScan ? "js-scan" : "exact top 10 (js-scan, untimed)");
  const scan = createJsScan(matrix, dimensions);
  const exact = await timeQueries(plan.jsScan ? warmup : [], vectorQueries, (q) => scan.search(q.vector, K));
  if (plan.jsScan) latency("js-scan.vector", summarize(exact.times), false);
  else notes.push("js-scan not timed");
  const recallOf = (found: readonly number[][]) =>
    found.reduce((sum, list, i) => sum + overlapAt(list, exact.results[i] ?? []), 0) /
    Math.max(1, found.length);
  add("claw.vector.recall@10", recallOf(vectorTimes.results), "ratio", "higher");

  if (plan.orama) {
    log("orama");
    const orama = await createOramaEngine(corpus, matrix);
    add("orama.insert_per_s", orama.insertPerSecond, "entries/s", "higher");
    const keyword = await timeQueries(warmup, keywordQueries, (q) => orama.keyword(q.text, K));
    latency("orama.keyword", summarize(keyword.times), false);
    const vector = await timeQueries(warmup, vectorQueries, (q) => orama.vector(q.vector, K));
    latency("orama.vector", summarize(vector.times), false);
    add("orama.vector.recall@10", recallOf(vector.results), "ratio", "higher");
    const hybrid = await timeQueries(warmup, vectorQueries, (q) => orama.hybrid(q.text, q.vector, K));
    latency("orama.hybrid", summarize(hybrid.times), false);
  } else {
    notes.push(
      "Orama not run (estimated, not tried: it takes vectors as JS number arrays, ≈ 3 GB of V8 heap for 1M × 384 against a 4.3 GB default limit, and ~2 min to index at its 100k insert rate)",
    );
  }
}
