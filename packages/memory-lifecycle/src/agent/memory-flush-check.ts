import { MemoryError } from "@claw/memory-api";

/** A session's context use, for deciding whether to flush memories before compaction. */
export interface MemoryFlushState {
  /** Tokens the session's context holds now (an estimate is fine). */
  contextTokens: number;
  /** The model's context window. */
  contextWindow: number;
  /** Tokens kept free for the compaction itself; default 20 000. */
  reserveTokensFloor?: number;
  /** How far before that floor the flush fires; default 4 000. */
  softThresholdTokens?: number;
  /** How many compactions the session has had; with the next field, limits flushes to one per cycle. */
  compactionCount?: number;
  /** The compactionCount at the last flush, if any. */
  lastFlushCompactionCount?: number;
}

/** Whether a flush turn is due now, and the threshold it was measured against. */
export interface MemoryFlushDecision {
  flush: boolean;
  /** The token count past which a flush is due. */
  threshold: number;
  systemPrompt: string;
  prompt: string;
}

/** The system message of a flush turn: tells the model the session is about to be compacted. */
export const MEMORY_FLUSH_SYSTEM_PROMPT = "Session nearing compaction. Store durable memories now.";
/** The user message of a flush turn: asks the model to write down what should last. */
export const MEMORY_FLUSH_PROMPT =
  "Write any lasting notes to memory/YYYY-MM-DD.md (or store them with memory_store); reply with NO_REPLY if nothing to store.";

/**
 * Seed 004's pre-compaction memory flush: when the context passes
 * `contextWindow − reserveTokensFloor − softThresholdTokens`, run one silent turn with these
 * prompts so the model writes down what must outlive the compaction. At most once per compaction
 * cycle: record `compactionCount` as `lastFlushCompactionCount` after flushing.
 */
export function memoryFlushCheck(state: MemoryFlushState): MemoryFlushDecision {
  for (const [name, value] of Object.entries(state)) {
    if (value !== undefined && (typeof value !== "number" || !Number.isFinite(value) || value < 0)) {
      throw MemoryError.invalidInput(name, "expected a non-negative number");
    }
  }
  const threshold =
    state.contextWindow - (state.reserveTokensFloor ?? 20_000) - (state.softThresholdTokens ?? 4_000);
  const alreadyThisCycle =
    state.lastFlushCompactionCount !== undefined &&
    state.lastFlushCompactionCount === (state.compactionCount ?? 0);
  return {
    flush: state.contextTokens > threshold && !alreadyThisCycle,
    threshold,
    systemPrompt: MEMORY_FLUSH_SYSTEM_PROMPT,
    prompt: MEMORY_FLUSH_PROMPT,
  };
}
