import { createHash } from "node:crypto";
import type { Memory, MemoryEntry } from "@claw/memory-api";
import { settingsOf } from "../support/memory-defaults.js";
import { bulletOf, estimateTokens } from "./token-budget.js";

/** Options of stableMemoryBlock: the namespace, how many core memories, and the token budget. */
export interface StableMemoryBlockOptions {
  namespace?: string;
  /** How many core memories at most (default 20). */
  limit?: number;
  /** Default 800 tokens (about 4 characters each). */
  maxTokens?: number;
  /** Default the memory's `stable_memory_in_system_prompt` (itself defaulting to `auto_recall`). */
  enabled?: boolean;
}

/** The heading of the stable core-memory block. */
export const STABLE_BLOCK_HEADING = "## What you remember about the user";

/**
 * The top core memories rendered for a system prompt, deterministically: the same memories always
 * give the same bytes (sorted by key, no timestamps or scores), so a provider's prompt cache keeps
 * hitting until a core memory changes. `hash` changes exactly when the text does.
 */
export async function stableMemoryBlock(
  memory: Memory,
  options: StableMemoryBlockOptions = {},
): Promise<{ text: string; hash: string; entries: MemoryEntry[] }> {
  const settings = settingsOf(memory);
  const enabled = options.enabled ?? settings.stableMemoryInSystemPrompt ?? settings.autoRecall;
  if (!enabled) return { text: "", hash: hashOf(""), entries: [] };
  const top = await memory.topCoreMemories(options.limit ?? 20, { namespace: options.namespace });
  const budget = options.maxTokens ?? 800;
  // Importance decides who is in; the key decides the order, so a re-ranking alone changes nothing.
  const kept: MemoryEntry[] = [];
  let used = estimateTokens(STABLE_BLOCK_HEADING);
  for (const entry of top) {
    const cost = estimateTokens(bulletOf(entry.content)) + 1;
    if (used + cost > budget) continue;
    used += cost;
    kept.push(entry);
  }
  kept.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const text =
    kept.length === 0 ? "" : [STABLE_BLOCK_HEADING, ...kept.map((e) => bulletOf(e.content))].join("\n");
  return { text, hash: hashOf(text), entries: kept };
}

function hashOf(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex").slice(0, 16);
}
