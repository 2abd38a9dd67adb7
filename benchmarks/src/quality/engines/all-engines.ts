import { createClawEngine } from "./claw-engine.js";
import type { RetrievalEngine } from "./engine.js";
import { createFts5Baseline } from "./fts5-baseline.js";
import { createOramaBm25 } from "./orama-bm25.js";
import { createPostgresEngine } from "./postgres-engine.js";

/**
 * The engine names, in report order: ours (each in core storage, then as an agent stores a chat;
 * then on PostgreSQL), then the baselines, which have no notion of category or date.
 */
export const ENGINE_NAMES = [
  "claw-bm25",
  "claw-bm25-conversation",
  "claw-hybrid",
  "claw-hybrid-conversation",
  "claw-pg-bm25-conversation",
  "fts5-baseline",
  "orama-bm25",
] as const;

/** One fresh instance of every engine; databases go under `workDir`. */
export function createAllEngines(workDir: string): RetrievalEngine[] {
  return [
    createClawEngine("bm25", workDir),
    createClawEngine("bm25", workDir, { storage: "conversation" }),
    createClawEngine("hybrid", workDir),
    createClawEngine("hybrid", workDir, { storage: "conversation" }),
    createPostgresEngine(),
    createFts5Baseline(workDir),
    createOramaBm25(),
  ];
}
