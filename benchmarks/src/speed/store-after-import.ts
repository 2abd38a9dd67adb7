/**
 * store() after bulk imports, in every profile: a keyword-only store filled by one import and one
 * holding the same entries imported in many calls (an agent syncing in batches), then single
 * store() calls on the two in turn. A rule of the full-text merge once left the merge of every
 * batch to the writes after them: after 100k entries in 20 calls store() p95 was 2.8–3.1 ms
 * against 0.5–0.7 ms after one import (p95 ratio 4.6–5.3; 0.94–1.0 with the rule fixed), and at
 * 1M in 50k calls its p50 was 3.2 ms. The CI profile's 1k and 10k sizes cannot show it (their
 * batches are too small to be bulk writes), so this runs at 100k, text only: ~10 s.
 */
import { join } from "node:path";
import { summarize } from "../stats.js";
import type { SuiteContext } from "../suite.js";
import { importCorpus, openKeywordClaw, removeDatabase } from "./claw-engine.js";
import { createCorpus } from "./corpus.js";
import { createSizeFigures, type SizeFigures } from "./size-figures.js";

export interface StoreAfterImportPlan {
  size: number;
  /** import() calls of the batched store. */
  calls: number;
  /** Timed store() calls on each store. */
  stores: number;
  seed: number;
}

export const STORE_AFTER_IMPORT: StoreAfterImportPlan = {
  size: 100_000,
  calls: 20,
  stores: 300,
  seed: 20_261_127,
};

const NAMES = ["import", "batches"] as const;

/**
 * Figures under `speed.after-import.<size>.`: each store's import rate (`claw.<name>.import_per_s`),
 * the store() latencies after it (`claw.store_after_<name>`, p50 and p95) and
 * `ratio.claw_store_after_batches_vs_import.{p50,p95}`.
 */
export async function measureStoreAfterImport(
  plan: StoreAfterImportPlan,
  ctx: Pick<SuiteContext, "workDir" | "log">,
): Promise<SizeFigures> {
  const label = `after-import.${plan.size >= 1000 ? `${plan.size / 1000}k` : plan.size}`;
  const out = createSizeFigures(label);
  const corpus = createCorpus({ size: plan.size, dimensions: 8, seed: plan.seed });
  const chunks = { import: undefined, batches: Math.ceil(plan.size / plan.calls) };
  const stores = NAMES.map((name) => {
    const path = join(ctx.workDir, `claw-after-${name}.db`);
    return { name, path, memory: openKeywordClaw(path), times: [] as number[] };
  });
  try {
    for (const { name, memory } of stores) {
      const calls = name === "import" ? "one call" : `${plan.calls} calls`;
      ctx.log(`speed ${label}: keyword-only import (${calls})`);
      const seconds = await importCorpus(memory, corpus, { dated: true }, chunks[name]);
      out.add(`claw.${name}.import_per_s`, plan.size / Math.max(seconds, 1e-9), "entries/s", "higher");
    }
    // In turn, so that both stores' figures come from the same minutes of the machine.
    ctx.log(`speed ${label}: store() × ${plan.stores} on each, in turn`);
    for (let j = 0; j < plan.stores; j++) {
      const index = plan.size + j;
      for (const { memory, times } of stores) {
        const start = process.hrtime.bigint();
        await memory.store(corpus.keyAt(index), corpus.sentenceAt(index));
        times.push(Number(process.hrtime.bigint() - start) / 1e6);
        await memory.flush();
      }
    }
    for (const { name, times } of stores) out.latency(`claw.store_after_${name}`, summarize(times), false);
  } finally {
    for (const { memory } of stores) await memory.close();
    for (const { path } of stores) removeDatabase(path);
  }
  for (const p of ["p50", "p95"]) {
    const batches = out.value(`claw.store_after_batches.${p}_ms`) as number;
    const whole = out.value(`claw.store_after_import.${p}_ms`) as number;
    out.add(`ratio.claw_store_after_batches_vs_import.${p}`, batches / whole, "ratio", "lower");
  }
  return out;
}
