import type { ConsolidationResult, Memory } from "@claw/memory-api";
import { type ConsolidateOptions, consolidateTurn, type Turn } from "../consolidation/consolidate-turn.js";
import { settingsOf } from "../support/memory-defaults.js";

/** Options of autoSaveTurn: consolidation's options, and whether to save at all. */
export interface AutoSaveOptions extends ConsolidateOptions {
  /** Default the memory's `auto_save`. */
  enabled?: boolean;
}

/**
 * The autosave path after a turn: nothing when `auto_save` is off (null), otherwise the autosave
 * filter, consolidation and the conflict check of consolidateTurn.
 */
export async function autoSaveTurn(
  memory: Memory,
  turn: Turn,
  options: AutoSaveOptions = {},
): Promise<ConsolidationResult | null> {
  const { enabled, ...rest } = options;
  if (!(enabled ?? settingsOf(memory).autoSave)) return null;
  return consolidateTurn(memory, turn, rest);
}
