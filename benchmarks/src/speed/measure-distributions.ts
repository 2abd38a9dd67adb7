/**
 * The speed suite's corpora beyond the default one, at one size: keyword recall on the `common`
 * text with typed queries (against the plain FTS5 form), and vector recall on word-derived vectors
 * (`anisotropic`, `sparse`) against the full scan. The default corpus flatters the store (rare
 * query terms, isotropic clusters); these are closer to what users see (GitHub issue 20).
 */
import { join } from "node:path";
import { summarize } from "../stats.js";
import type { SuiteContext } from "../suite.js";
import { clawRecall, importCorpus, openClaw, openKeywordClaw, removeDatabase } from "./claw-engine.js";
import { createCorpus, type VectorDistribution } from "./corpus.js";
import { withFullScan } from "./fullscan-engine.js";
import { createJsScan, overlapWithTies } from "./js-scan-engine.js";
import { createPlainFts } from "./plain-fts-engine.js";
import { createPrecomputedEmbeddings } from "./precomputed-embeddings.js";
import type { SizeFigures } from "./size-figures.js";
import type { SizePlan } from "./size-plan.js";
import { RATIO_BLOCKS, timeEnginesInBlocks, timeQueries } from "./time-queries.js";

/** What a distribution measurement needs of the size plan. */
export type DistributionPlan = Pick<
  SizePlan,
  "label" | "size" | "dimensions" | "queries" | "vectorQueries" | "warmup" | "seed"
>;

/** The vector distributions measured beside the default `clustered` one. */
export const EXTRA_VECTOR_DISTRIBUTIONS: readonly VectorDistribution[] = ["anisotropic", "sparse"];

const K = 10;
const MB = 1024 * 1024;

type Context = Pick<SuiteContext, "workDir" | "log">;

/**
 * `common.claw.keyword.*` and `common.claw.rss_mb` (hot cache off, keyword-only store, so no
 * vectors to generate), and `common.plain-fts.keyword.*` on
 * the same entries and typed queries. Returns a note on how common the corpus's top words are.
 */
export async function measureCommonKeyword(
  plan: DistributionPlan,
  ctx: Context,
  out: SizeFigures,
): Promise<string> {
  const { label, size, dimensions, seed } = plan;
  const corpus = createCorpus({ size, dimensions, seed, text: "common" });
  const all = corpus.queries(plan.warmup + plan.queries, { style: "typed" });
  const warmup = all.slice(0, plan.warmup);
  const queries = all.slice(plan.warmup);

  ctx.log(`speed ${label}: common corpus, claw keyword (${queries.length} typed queries)`);
  const clawPath = join(ctx.workDir, `claw-common-${label}.db`);
  const memory = openKeywordClaw(clawPath);
  try {
    await importCorpus(memory, corpus);
    (globalThis as { gc?: () => void }).gc?.();
    out.add("common.claw.rss_mb", process.memoryUsage.rss() / MB, "MB", "lower");
    const timed = await timeQueries(warmup, queries, (q) => clawRecall(memory, q.text, "bm25", K));
    out.latency("common.claw.keyword", summarize(timed.times), true);
  } finally {
    await memory.close();
    removeDatabase(clawPath);
  }

  ctx.log(`speed ${label}: common corpus, plain FTS5`);
  const ftsPath = join(ctx.workDir, `plain-fts-common-${label}.db`);
  const fts = createPlainFts(ftsPath, corpus);
  try {
    const timed = await timeQueries(warmup, queries, (q) => fts.search(q.text, K));
    out.latency("common.plain-fts.keyword", summarize(timed.times), true);
    const share = (rank: number) => fts.documentShare(corpus.vocabulary.words[rank] as string);
    return `common corpus: its top word is in ${percent(share(0))} of entries, its 10th in ${percent(share(9))}`;
  } finally {
    fts.close();
    removeDatabase(ftsPath);
  }
}

/**
 * `<d>.claw.vector.*`, `<d>.claw.rss_mb`, `<d>.fullscan.vector.*` and `<d>.claw.vector.recall@10`
 * on the common text with typed queries, each query embedded from its own words. The corpus's
 * vectors exist once, in this function's matrix, dropped when it returns.
 */
export async function measureVectorDistribution(
  plan: DistributionPlan,
  vectors: VectorDistribution,
  ctx: Context,
  out: SizeFigures,
): Promise<void> {
  const { label, size, dimensions, seed } = plan;
  const log = (message: string) => ctx.log(`speed ${label}: ${vectors} vectors, ${message}`);
  log(`generating ${size} × ${dimensions}`);
  const corpus = createCorpus({ size, dimensions, seed, text: "common", vectors });
  const all = corpus.queries(plan.warmup + plan.vectorQueries, { style: "typed" });
  const warmup = all.slice(0, plan.warmup);
  const queries = all.slice(plan.warmup);
  const matrix = corpus.fillVectors(0, size);

  log(`claw import and ${queries.length} vector queries`);
  const embeddings = createPrecomputedEmbeddings({
    dimensions,
    entries: all.map((q) => [q.text, q.vector] as const),
  });
  const clawPath = join(ctx.workDir, `claw-${vectors}-${label}.db`);
  const memory = openClaw(clawPath, embeddings);
  let found: number[][];
  try {
    await importCorpus(memory, corpus, { matrix });
    (globalThis as { gc?: () => void }).gc?.();
    out.add(`${vectors}.claw.rss_mb`, process.memoryUsage.rss() / MB, "MB", "lower");
    log("full scan, timed in alternating blocks with claw");
    const [claw, scanned] = await withFullScan(
      join(ctx.workDir, `fullscan-${vectors}-${label}.db`),
      matrix,
      dimensions,
      (full) =>
        timeEnginesInBlocks(
          warmup,
          queries,
          [(q) => clawRecall(memory, q.text, "embedding", K), (q) => full.search(q.vector, K)],
          RATIO_BLOCKS,
        ),
    );
    out.latency(`${vectors}.claw.vector`, summarize(claw.times), true);
    out.latency(`${vectors}.fullscan.vector`, summarize(scanned.times), false);
    found = claw.results;
  } finally {
    await memory.close();
    removeDatabase(clawPath);
  }

  log("exact top 10 (js-scan, untimed)");
  const scan = createJsScan(matrix, dimensions);
  let recall = 0;
  queries.forEach((q, i) => {
    const exact = scan.search(q.vector, K);
    recall += overlapWithTies(found[i] ?? [], exact, (index) => scan.similarity(q.vector, index));
  });
  out.add(`${vectors}.claw.vector.recall@10`, recall / Math.max(1, queries.length), "ratio", "higher");
}

function percent(share: number): string {
  return `${Math.round(share * 100)}%`;
}
