/**
 * The speed suite: claw's store against a full scan, a JavaScript scan and Orama, on one seeded
 * synthetic corpus per size, with latency percentiles, throughput, memory and size figures.
 */
import type { Figure, Profile, Suite, SuiteOutput, TableSpec } from "../suite.js";
import { distributionTable, recallChart } from "./distribution-report.js";
import { measureSize, type SizeResult } from "./measure-size.js";
import type { SizePlan } from "./size-plan.js";
import { speedCharts, speedTable } from "./speed-report.js";
import { measureStoreAfterImport, STORE_AFTER_IMPORT } from "./store-after-import.js";

const SEED = 20_261_121;

function plan(label: string, size: number, dimensions: number, overrides: Partial<SizePlan> = {}): SizePlan {
  return {
    label,
    size,
    dimensions,
    queries: 200,
    vectorQueries: 200,
    warmup: 10,
    stores: 300,
    jsScan: true,
    orama: true,
    distributions: true,
    seed: SEED,
    ...overrides,
  };
}

/** 1M × 384: a full scan costs ~0.7 s a query, so vector queries are fewer, and Orama is left out
 *  (1M documents with vectors as JS arrays take many GB of heap and minutes to index). */
const ONE_MILLION: Partial<SizePlan> = { vectorQueries: 50, orama: false };

/**
 * "ci" stays far under two minutes on the project's 2-core machines, the extra distributions
 * included. "full" adds 100k at 768 dims and 1M at 384, the distributions up to 100k. "large" is
 * full's 1M with the distributions (three more 1M imports and scans): run on its own, not in CI.
 */
export const SPEED_PROFILES: Record<Profile, readonly SizePlan[]> = {
  ci: [plan("1k", 1_000, 384), plan("10k", 10_000, 384)],
  full: [
    plan("1k", 1_000, 768),
    plan("10k", 10_000, 768),
    plan("100k", 100_000, 768),
    plan("1m", 1_000_000, 384, { ...ONE_MILLION, distributions: false }),
  ],
  large: [plan("1m", 1_000_000, 384, ONE_MILLION)],
};

/**
 * Which docs/benchmarks.md block each table goes to: the full profile's per-size tables and its
 * 100k distribution table, the large profile's 1M tables.
 */
function withDocsBlocks(output: SuiteOutput, profile: Profile): SuiteOutput {
  const docsOf = (table: TableSpec): string | undefined => {
    if (profile === "large") return "speed-large";
    if (profile !== "full") return undefined;
    if (table.title.endsWith("by corpus distribution")) {
      return table.title.startsWith("Speed at 100k") ? "speed-distributions-100k" : undefined;
    }
    return "speed-full";
  };
  return {
    ...output,
    tables: output.tables.map((table) => {
      const docs = docsOf(table);
      return docs === undefined ? table : { ...table, docs };
    }),
  };
}

/** `extra`: figures of no size plan (store() after imports). */
export function speedOutput(results: readonly SizeResult[], extra: readonly Figure[] = []): SuiteOutput {
  return {
    figures: [...results.flatMap((r) => r.figures), ...extra],
    charts: [
      ...speedCharts(results),
      ...(results.some((r) => r.plan.distributions) ? [recallChart(results)] : []),
    ],
    tables: results.flatMap((r) => [speedTable(r), ...(r.plan.distributions ? [distributionTable(r)] : [])]),
  };
}

export const speedSuite: Suite<Profile> = {
  name: "speed",
  description:
    "Latency (p50/p95/p99), import and store() throughput, RSS and database size of claw's SQLite store, " +
    "against a sqlite-vec full scan, a JavaScript scan, plain FTS5 and Orama on the same synthetic corpus, " +
    "plus keyword recall on common words and vector recall on anisotropic and sparse embeddings",
  profiles: ["ci", "full", "large"],
  async run(ctx) {
    const results: SizeResult[] = [];
    for (const sizePlan of SPEED_PROFILES[ctx.profile]) {
      const result = await measureSize(sizePlan, ctx);
      ctx.log(`speed ${sizePlan.label}: done in ${result.seconds.toFixed(1)} s`);
      results.push(result);
    }
    const afterImport = await measureStoreAfterImport(STORE_AFTER_IMPORT, ctx);
    return withDocsBlocks(speedOutput(results, afterImport.figures), ctx.profile);
  },
};
