/**
 * The speed suite: claw's store against a full scan, a JavaScript scan and Orama, on one seeded
 * synthetic corpus per size, with latency percentiles, throughput, memory and size figures.
 */
import type { Profile, Suite, SuiteOutput } from "../suite.js";
import { measureSize, type SizePlan, type SizeResult } from "./measure-size.js";
import { speedCharts, speedTable } from "./speed-report.js";

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
    seed: SEED,
    ...overrides,
  };
}

/**
 * "ci" stays far under two minutes on the project's 2-core machines. "full" adds 100k at 768 dims
 * and 1M at 384: there a full scan costs ~0.7 s a query, so vector queries are fewer, and Orama
 * is left out (1M documents with vectors as JS arrays take many GB of heap and minutes to index).
 */
export const SPEED_PROFILES: Record<Profile, readonly SizePlan[]> = {
  ci: [plan("1k", 1_000, 384), plan("10k", 10_000, 384)],
  full: [
    plan("1k", 1_000, 768),
    plan("10k", 10_000, 768),
    plan("100k", 100_000, 768),
    plan("1m", 1_000_000, 384, { vectorQueries: 50, orama: false }),
  ],
};

export function speedOutput(results: readonly SizeResult[]): SuiteOutput {
  return {
    figures: results.flatMap((r) => r.figures),
    charts: speedCharts(results),
    tables: results.map(speedTable),
  };
}

export const speedSuite: Suite = {
  name: "speed",
  description:
    "Latency (p50/p95/p99), import and store() throughput, RSS and database size of claw's SQLite store, " +
    "against a sqlite-vec full scan, a JavaScript scan and Orama on the same synthetic corpus",
  async run(ctx) {
    const results: SizeResult[] = [];
    for (const sizePlan of SPEED_PROFILES[ctx.profile]) {
      const result = await measureSize(sizePlan, ctx);
      ctx.log(`speed ${sizePlan.label}: done in ${result.seconds.toFixed(1)} s`);
      results.push(result);
    }
    return speedOutput(results);
  },
};
