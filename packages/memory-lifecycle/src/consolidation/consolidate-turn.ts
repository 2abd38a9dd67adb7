import { randomUUID } from "node:crypto";
import type { ConsolidationResult, Memory, MemoryEntry } from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";
import { contentHash, scoreImportance } from "@claw/memory-core";
import { type ConflictCheckOptions, storeWithConflictCheck } from "../conflict/store-with-conflict-check.js";
import { truncateAtWord } from "../support/truncate-words.js";
import { shouldSkipAutosave } from "./autosave-filter.js";

/** Seed 000: a turn is promoted to Core at importance ≥ 0.8 and at least 10 characters. */
export const CORE_PROMOTION_THRESHOLD = 0.8;
/** A turn shorter than this is never promoted to Core. */
export const CORE_PROMOTION_MIN_CHARS = 10;
/** Daily notes keep 500 characters of a turn: the seed's 50 keep too little of it to be found again. */
export const DEFAULT_DAILY_MAX_CHARS = 500;

/** One exchange of a conversation: the user's message and, when there was one, the answer. */
export interface Turn {
  user: string;
  assistant?: string;
  sessionId?: string;
}

/** Options of consolidateTurn. */
export interface ConsolidateOptions extends Pick<ConflictCheckOptions, "threshold" | "mode"> {
  namespace?: string;
  /** Characters kept of the turn in its Daily entry, cut at a word boundary (default 500). */
  dailyMaxChars?: number;
  /** Default 0.8. */
  promotionThreshold?: number;
  now?: Date;
}

/**
 * After an agent turn (no LLM involved): writes a Daily entry `daily_{date}_{uuid}` with the turn,
 * and promotes the user's message to a Core memory when its importance reaches the threshold,
 * through the conflict check so it supersedes what it contradicts. Turns the autosave filter
 * rejects write nothing.
 */
export async function consolidateTurn(
  memory: Memory,
  turn: Turn,
  options: ConsolidateOptions = {},
): Promise<ConsolidationResult> {
  if (turn === null || typeof turn !== "object")
    throw MemoryError.invalidInput("turn", "expected { user, assistant? }");
  if (typeof turn.user !== "string") throw MemoryError.invalidInput("turn.user", "expected a string");
  if (turn.assistant !== undefined && typeof turn.assistant !== "string")
    throw MemoryError.invalidInput("turn.assistant", "expected a string");
  const maxChars = options.dailyMaxChars ?? DEFAULT_DAILY_MAX_CHARS;
  if (!Number.isInteger(maxChars) || maxChars < 10)
    throw MemoryError.invalidInput("dailyMaxChars", "expected an integer of at least 10");
  if (shouldSkipAutosave(turn.user)) {
    return { daily: null, core: null, superseded: [], skipped: "the autosave filter rejected the message" };
  }

  const now = options.now ?? new Date();
  const namespace = options.namespace;
  const user = turn.user.trim();
  const assistant = turn.assistant?.trim();
  const text = assistant && !shouldSkipAutosave(assistant) ? `${user}\n→ ${assistant}` : user;
  const daily = await memory.store(
    `daily_${now.toISOString().slice(0, 10)}_${randomUUID()}`,
    truncateAtWord(text, maxChars),
    { category: "daily", namespace, sessionId: turn.sessionId },
  );

  let core: MemoryEntry | null = null;
  let superseded: string[] = [];
  const importance = scoreImportance(user, "core");
  if (
    importance >= (options.promotionThreshold ?? CORE_PROMOTION_THRESHOLD) &&
    Array.from(user).length >= CORE_PROMOTION_MIN_CHARS
  ) {
    // The key follows the content, so telling the same fact twice updates one entry.
    const result = await storeWithConflictCheck(memory, `core_${contentHash(user)}`, user, {
      category: "core",
      namespace,
      importance,
      threshold: options.threshold,
      mode: options.mode,
    });
    core = result.entry;
    superseded = result.superseded;
  }
  return { daily, core, superseded };
}
