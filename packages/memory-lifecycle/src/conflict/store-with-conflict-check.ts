import type { ConflictMode, ConflictScore, Memory, MemoryEntry, StoreOptions } from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";
import { loggerOf, settingsOf } from "../support/memory-defaults.js";
import { detectConflict } from "./detect-conflict.js";

/** Options of storeWithConflictCheck: the store options, and how conflicts are measured. */
export interface ConflictCheckOptions extends StoreOptions {
  /** Default: the memory's `conflict_threshold` (0.6). A pair conflicts when total > threshold. */
  threshold?: number;
  /** Default: the memory's `conflict_mode` (combined 0.4/0.4/0.2). */
  mode?: ConflictMode;
  /** How many candidates to compare with (default 10). */
  candidates?: number;
}

/** What storeWithConflictCheck stored and which entries it superseded. */
export interface ConflictCheckResult {
  entry: MemoryEntry;
  /** Keys of the entries this one superseded. */
  superseded: string[];
  /** Every candidate compared, with its score, best first. */
  compared: Array<{ key: string; score: ConflictScore }>;
}

/** The prefix put before a superseded entry's content, naming the entry that replaced it. */
export const SUPERSEDED_PREFIX = (key: string): string => `[SUPERSEDED by '${key}'] `;

/**
 * Stores `content` under `key` after looking for older memories it contradicts or replaces: the
 * closest entries of the same namespace and category (full-text and vectors, through recall) are
 * scored with detectConflict, and each one above the threshold is marked `supersededBy: key` with
 * the `[SUPERSEDED by 'key'] ` prefix. The old entry stays (the audit trail) but recall leaves it
 * out. An entry is never superseded by itself or by identical content.
 */
export async function storeWithConflictCheck(
  memory: Memory,
  key: string,
  content: string,
  options: ConflictCheckOptions = {},
): Promise<ConflictCheckResult> {
  if (typeof key !== "string" || key.trim() === "")
    throw MemoryError.invalidInput("key", "must not be empty");
  if (typeof content !== "string" || content.trim() === "")
    throw MemoryError.invalidInput("content", "must not be empty");
  const settings = settingsOf(memory);
  const threshold = options.threshold ?? settings.conflictThreshold;
  if (typeof threshold !== "number" || !(threshold >= 0 && threshold <= 1))
    throw MemoryError.invalidInput("threshold", "expected a number between 0 and 1");
  const mode = options.mode ?? settings.conflictMode;
  const { threshold: _t, mode: _m, candidates: limit = 10, ...storeOptions } = options;
  const namespace = storeOptions.namespace ?? "default";
  const category = storeOptions.category ?? "core";

  const candidates = await memory.recall(content, {
    namespace,
    categories: [category],
    limit,
    withEmbeddings: mode.kind === "combined",
  });
  const embedding = mode.kind === "combined" ? await embeddingOf(memory, content) : null;
  const compared = candidates
    .filter((c) => c.key !== key && c.content !== content && c.supersededBy === undefined)
    .map((c) => ({
      entry: c,
      score: detectConflict({ content, embedding }, { content: c.content, embedding: c.embedding }, mode),
    }))
    .sort((x, y) => y.score.total - x.score.total);
  const losers = compared.filter((c) => c.score.total > threshold).map((c) => c.entry);

  const entry = await memory.store(key, content, storeOptions);
  if (losers.length > 0) {
    await memory.import(
      losers.map(({ score: _s, embedding: _e, ...old }) => ({
        ...old,
        content: `${SUPERSEDED_PREFIX(key)}${old.content}`,
        supersededBy: key,
      })),
    );
  }
  return {
    entry,
    superseded: losers.map((l) => l.key),
    compared: compared.map((c) => ({ key: c.entry.key, score: c.score })),
  };
}

/** The new content's vector, or null (then detectConflict falls back to Jaccard). */
async function embeddingOf(memory: Memory, content: string): Promise<Float32Array | null> {
  if (memory.embed === undefined) return null;
  try {
    const vectors = await memory.embed([content], { purpose: "document" });
    return vectors?.[0] ?? null;
  } catch (error) {
    loggerOf(memory).warn("conflict check: embedding failed; comparing by words only", {
      error: (error as Error).message,
    });
    return null;
  }
}
