import type { Memory, MemoryEntry } from "@claw/memory-api";
import { jaccardSimilarity, tokenSet } from "@claw/memory-core";
import { shouldSkipAutosave } from "../consolidation/autosave-filter.js";
import { settingsOf } from "../support/memory-defaults.js";
import { bulletOf, estimateTokens } from "./token-budget.js";

/** The first line of every recalled block; the autosave filter drops text that carries it. */
export const MEMORY_CONTEXT_MARKER = "[memory context]";

/** Options of recallForTurn: how many memories, from where, and the token budget of the block. */
export interface RecallForTurnOptions {
  /** Default the memory's `auto_recall_limit` (5). */
  limit?: number;
  namespace?: string;
  sessionId?: string;
  /** The block stays under this many tokens (about 4 characters each); default 600. */
  maxTokens?: number;
  minScore?: number;
  /** Default the memory's `auto_recall`; when false the block is empty. */
  enabled?: boolean;
  /** Entries already in the prompt (e.g. the stable core block): not repeated here. */
  exclude?: Iterable<string>;
  signal?: AbortSignal;
  /** Runs the recall; default `memory.recall` (a server passes its recall workers'). */
  recall?: Memory["recall"];
}

/** Two memories this close in wording say the same thing; the better-ranked one is kept. */
const DUPLICATE_JACCARD = 0.85;

/**
 * The memories most relevant to a user message, as one `[memory context]` block for the prompt:
 * best first, near-duplicates and earlier recalled blocks dropped, cut to the token budget.
 * Because of the marker, an autosave of this text is filtered out, so recalled memories are
 * never stored back as new ones.
 *
 * @example
 * ```ts
 * import { recallForTurn } from "@claw/memory-lifecycle";
 *
 * const recalled = await recallForTurn(memory, "what is my cat called?", { limit: 5 });
 * const system = `You are a helpful assistant.\n\n${recalled.text}`;
 * ```
 */
export async function recallForTurn(
  memory: Memory,
  message: string,
  options: RecallForTurnOptions = {},
): Promise<{ text: string; entries: MemoryEntry[] }> {
  const settings = settingsOf(memory);
  if (!(options.enabled ?? settings.autoRecall) || message.trim() === "") return { text: "", entries: [] };
  const limit = options.limit ?? settings.autoRecallLimit;
  const budget = options.maxTokens ?? 600;
  const excluded = new Set(options.exclude ?? []);
  // Ask for more than needed: duplicates and excluded entries are dropped afterwards.
  const recall = options.recall ?? ((query, recallOptions) => memory.recall(query, recallOptions));
  const hits = await recall(message, {
    limit: Math.min(limit * 3, 100),
    namespace: options.namespace,
    minScore: options.minScore,
    signal: options.signal,
  });

  const kept: MemoryEntry[] = [];
  const keptTokens: Array<Set<string>> = [];
  const lines = [MEMORY_CONTEXT_MARKER];
  let used = estimateTokens(MEMORY_CONTEXT_MARKER);
  for (const hit of hits) {
    if (kept.length >= limit) break;
    if (excluded.has(hit.key) || shouldSkipAutosave(hit.content)) continue;
    const tokens = tokenSet(hit.content);
    if (keptTokens.some((other) => jaccardSimilarity(tokens, other) >= DUPLICATE_JACCARD)) continue;
    const line = bulletOf(labelled(hit));
    const cost = estimateTokens(line) + 1;
    if (used + cost > budget) continue;
    used += cost;
    lines.push(line);
    kept.push(hit);
    keptTokens.push(tokens);
  }
  return kept.length === 0 ? { text: "", entries: [] } : { text: lines.join("\n"), entries: kept };
}

/** `(daily 2026-11-20) Standup moved to 9:30`: the category, and the date for non-core entries. */
function labelled(entry: MemoryEntry): string {
  const date = entry.category === "core" ? "" : ` ${entry.updatedAt.slice(0, 10)}`;
  return `(${entry.category}${date}) ${entry.content}`;
}
