import { createClawEngine } from "./claw-engine.js";
import type { RetrievalEngine } from "./engine.js";
import { createFts5Baseline } from "./fts5-baseline.js";
import { createOramaBm25 } from "./orama-bm25.js";

/** The engine names, in report order: ours first, then the baselines. */
export const ENGINE_NAMES = ["claw-bm25", "claw-hybrid", "fts5-baseline", "orama-bm25"] as const;

/** One fresh instance of every engine; databases go under `workDir`. */
export function createAllEngines(workDir: string): RetrievalEngine[] {
  return [
    createClawEngine("bm25", workDir),
    createClawEngine("hybrid", workDir),
    createFts5Baseline(workDir),
    createOramaBm25(),
  ];
}
