/**
 * One corpus size, every engine on the same data: generate, load, warm up, time the queries, and
 * turn the latencies into the `speed.<size>.*` figures (ratios included, from this same run).
 */
import { join } from "node:path";
import { type LatencySummary, summarize } from "../stats.js";
import { type Figure, figure, type SuiteContext } from "../suite.js";
import {
  clawRecall,
  databaseBytes,
  importCorpus,
  measureKeywordImport,
  measureStores,
  openClaw,
  removeDatabase,
} from "./claw-engine.js";
import { type CorpusQuery, createCorpus } from "./corpus.js";
import { createFullScan } from "./fullscan-engine.js";
import { createJsScan, overlapAt } from "./js-scan-engine.js";
import { createOramaEngine } from "./orama-engine.js";
import { createPrecomputedEmbeddings } from "./precomputed-embeddings.js";

export interface SizePlan {
  /** The id segment: `1k`, `10k`, `100k`, `1m`. */
  label: string;
  size: number;
  dimensions: number;
  /** Timed keyword queries. */
  queries: number;
  /** Timed vector and hybrid queries (the first of the keyword ones); scans are slow at 1M. */
  vectorQueries: number;
  /** Untimed queries each engine answers first. */
  warmup: number;
  /** Single store() calls after the bulk load. */
  stores: number;
  jsScan: boolean;
  orama: boolean;
  seed: number;
}

export interface SizeResult {
  plan: SizePlan;
  figures: Figure[];
  /** What was skipped or differs at this size, for the table note. */
  notes: string[];
  seconds: number;
}

const K = 10;
const MB = 1024 * 1024;

interface Timed<T> {
  times: number[];
  results: T[];
}

/** Warm-up queries first (untimed), then each timed query alone on the monotonic clock. */
async function timeQueries<T>(
  warmup: readonly CorpusQuery[],
  queries: readonly CorpusQuery[],
  run: (query: CorpusQuery) => T | Promise<T>,
): Promise<Timed<T>> {
  for (const query of warmup) await run(query);
  const times: number[] = [];
  const results: T[] = [];
  for (const query of queries) {
    const start = process.hrtime.bigint();
    results.push(await run(query));
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return { times, results };
}

export async function measureSize(
  plan: SizePlan,
  ctx: Pick<SuiteContext, "workDir" | "log">,
): Promise<SizeResult> {
  const began = process.hrtime.bigint();
  const { label, size, dimensions } = plan;
  const log = (message: string) => ctx.log(`speed ${label}: ${message}`);
  const figures: Figure[] = [];
  const notes: string[] = [];
  const add = (id: string, value: number, unit: string, better: Figure["better"]) =>
    figures.push(figure(`speed.${label}.${id}`, value, unit, better));
  const latency = (id: string, summary: LatencySummary, all: boolean) => {
    add(`${id}.p50_ms`, summary.p50, "ms", "lower");
    add(`${id}.p95_ms`, summary.p95, "ms", "lower");
    if (all) add(`${id}.p99_ms`, summary.p99, "ms", "lower");
  };

  log(`generating ${size} entries × ${dimensions} dims`);
  const corpus = createCorpus({ size, dimensions, seed: plan.seed });
  const all = corpus.queries(plan.warmup + Math.max(plan.queries, plan.vectorQueries));
  const warmup = all.slice(0, plan.warmup);
  const keywordQueries = all.slice(plan.warmup, plan.warmup + plan.queries);
  const vectorQueries = all.slice(plan.warmup, plan.warmup + plan.vectorQueries);
  // The one copy of the corpus vectors: claw and the full scan read views of it, js-scan scans it.
  const matrix = corpus.fillVectors(0, size);

  log("claw keyword-only import");
  add(
    "claw.import_per_s",
    await measureKeywordImport(join(ctx.workDir, `claw-kw-${label}.db`), corpus),
    "entries/s",
    "higher",
  );

  log("claw import with vectors");
  const embeddings = createPrecomputedEmbeddings({
    dimensions,
    entries: all.map((q) => [q.text, q.vector] as const),
  });
  const clawPath = join(ctx.workDir, `claw-${label}.db`);
  const memory = openClaw(clawPath, embeddings);
  let vectorTimes: Timed<number[]>;
  try {
    const importSeconds = await importCorpus(memory, corpus, matrix);
    add("claw.import_vectors_per_s", size / Math.max(importSeconds, 1e-9), "entries/s", "higher");
    // Garbage (of the import, of a previous size) would blur the figure: collect it when node
    // allows (--expose-gc). A difference against an RSS taken before the load is not reported: the
    // allocator returns freed memory to the system at its own pace, so such deltas even go negative.
    (globalThis as { gc?: () => void }).gc?.();
    add("claw.rss_mb", process.memoryUsage.rss() / MB, "MB", "lower");

    log(`claw recall (${plan.queries} keyword, ${plan.vectorQueries} vector/hybrid queries)`);
    const keyword = await timeQueries(warmup, keywordQueries, (q) => clawRecall(memory, q.text, "bm25", K));
    latency("claw.keyword", summarize(keyword.times), true);
    vectorTimes = await timeQueries(warmup, vectorQueries, (q) => clawRecall(memory, q.text, "embedding", K));
    latency("claw.vector", summarize(vectorTimes.times), true);
    const hybrid = await timeQueries(warmup, vectorQueries, (q) => clawRecall(memory, q.text, "hybrid", K));
    latency("claw.hybrid", summarize(hybrid.times), true);

    log(`claw store() × ${plan.stores}`);
    latency("claw.store", summarize(await measureStores(memory, corpus, embeddings, plan.stores)), false);
    const bytes = databaseBytes(clawPath);
    add("claw.db_mb", (bytes.file + bytes.wal) / MB, "MB", "lower");
    add("claw.wal_mb", bytes.wal / MB, "MB", "lower");
  } finally {
    await memory.close();
    removeDatabase(clawPath);
  }

  log("full scan (vec_distance_cosine)");
  const fullPath = join(ctx.workDir, `fullscan-${label}.db`);
  const fullscan = createFullScan(fullPath, matrix, dimensions);
  try {
    const timed = await timeQueries(warmup, vectorQueries, (q) => fullscan.search(q.vector, K));
    latency("fullscan.vector", summarize(timed.times), false);
  } finally {
    fullscan.close();
    removeDatabase(fullPath);
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

  addRatios(label, figures);
  return { plan, figures, notes, seconds: Number(process.hrtime.bigint() - began) / 1e9 };
}

/** The p50 ratios the CI gate reads; one is absent when its peer did not run at this size. */
function addRatios(label: string, figures: Figure[]): void {
  const value = (id: string) => figures.find((f) => f.id === `speed.${label}.${id}`)?.value;
  const ratios: Array<[string, string, string]> = [
    ["claw_vector_vs_fullscan", "claw.vector.p50_ms", "fullscan.vector.p50_ms"],
    ["claw_hybrid_vs_fullscan", "claw.hybrid.p50_ms", "fullscan.vector.p50_ms"],
    ["claw_keyword_vs_orama", "claw.keyword.p50_ms", "orama.keyword.p50_ms"],
    ["claw_hybrid_vs_orama", "claw.hybrid.p50_ms", "orama.hybrid.p50_ms"],
  ];
  for (const [name, ours, theirs] of ratios) {
    const a = value(ours);
    const b = value(theirs);
    if (a === undefined || b === undefined || b <= 0) continue;
    figures.push(figure(`speed.${label}.ratio.${name}.p50`, a / b, "ratio", "lower"));
  }
}
