// What the middleware puts in the system prompt for one user message: the stable core memories and
// the memories recalled for the message, as one marked block within a token budget.
import type { Memory } from "@claw/memory-api";
import { estimateTokens, recallForTurn, stableMemoryBlock } from "@claw/memory-lifecycle";
import { MEMORY_BLOCK_END, MEMORY_BLOCK_START, renderMemoryBlock } from "./system-prompt-block.js";

export const DEFAULT_TOKEN_BUDGET = 1400;

export interface MemoryBlockOptions {
  namespace?: string;
  recallLimit?: number;
  /** The whole block stays under this many tokens (about 4 characters each); default 1400. */
  tokenBudget?: number;
  signal?: AbortSignal;
}

/**
 * The block for `message`, "" when there is nothing to remember. The stable core memories get at
 * most 4/7 of the budget (800 of the default 1400), the recalled ones what is left; a core memory
 * already in the stable part is not recalled again.
 */
export async function buildMemoryBlock(
  memory: Memory,
  message: string,
  options: MemoryBlockOptions = {},
): Promise<{ text: string; keys: string[] }> {
  const budget = options.tokenBudget ?? DEFAULT_TOKEN_BUDGET;
  // The markers and the blank line between the parts are paid for first.
  const overhead = estimateTokens(`${MEMORY_BLOCK_START}\n\n\n\n${MEMORY_BLOCK_END}`);
  const stable = await stableMemoryBlock(memory, {
    namespace: options.namespace,
    maxTokens: Math.floor(((budget - overhead) * 4) / 7),
  });
  const left = budget - overhead - estimateTokens(stable.text);
  const recalled =
    message.trim() === "" || left < 10
      ? { text: "", entries: [] }
      : await recallForTurn(memory, message, {
          namespace: options.namespace,
          limit: options.recallLimit,
          maxTokens: left,
          exclude: stable.entries.map((e) => e.key),
          signal: options.signal,
        });
  return {
    text: renderMemoryBlock([stable.text, recalled.text]),
    keys: [...stable.entries, ...recalled.entries].map((e) => e.key),
  };
}
