export { type AutoSaveOptions, autoSaveTurn } from "./agent/auto-save-turn.js";
export {
  MEMORY_FLUSH_PROMPT,
  MEMORY_FLUSH_SYSTEM_PROMPT,
  type MemoryFlushDecision,
  type MemoryFlushState,
  memoryFlushCheck,
} from "./agent/memory-flush-check.js";
export { MEMORY_CONTEXT_MARKER, type RecallForTurnOptions, recallForTurn } from "./agent/recall-for-turn.js";
export {
  STABLE_BLOCK_HEADING,
  type StableMemoryBlockOptions,
  stableMemoryBlock,
} from "./agent/stable-memory-block.js";
export { estimateTokens } from "./agent/token-budget.js";
export { bm25Overlap } from "./conflict/bm25-overlap.js";
export {
  CONTRADICTION_WEIGHT,
  DEFAULT_CONFLICT_MODE,
  detectConflict,
} from "./conflict/detect-conflict.js";
export {
  type ConflictCheckOptions,
  type ConflictCheckResult,
  SUPERSEDED_PREFIX,
  storeWithConflictCheck,
} from "./conflict/store-with-conflict-check.js";
export {
  AUTOSAVE_SKIP_PREFIXES,
  shouldSkipAutosave,
} from "./consolidation/autosave-filter.js";
export {
  CORE_PROMOTION_MIN_CHARS,
  CORE_PROMOTION_THRESHOLD,
  type ConsolidateOptions,
  consolidateTurn,
  DEFAULT_DAILY_MAX_CHARS,
  type Turn,
} from "./consolidation/consolidate-turn.js";
export { type CurateOptions, curate } from "./curator/curate.js";
export { CURATOR_SYSTEM_PROMPT } from "./curator/curator-prompt.js";
export { HYGIENE_STATE_FILE } from "./hygiene/hygiene-state.js";
export type { CategoryRetention } from "./hygiene/prune-plan.js";
export { type HygieneOptions, runHygiene } from "./hygiene/run-hygiene.js";
export {
  HYDRATE_BELOW_BYTES,
  type LifecyclePluginOptions,
  lifecyclePlugin,
} from "./lifecycle-plugin.js";
export { exportSnapshot, hydrateFromSnapshot, type SnapshotResult } from "./snapshot/snapshot.js";
export { parseSnapshot, renderSnapshot, SNAPSHOT_FILE } from "./snapshot/snapshot-format.js";
export { truncateAtWord } from "./support/truncate-words.js";
export {
  type BoundMemoryTool,
  bindMemoryTools,
  isMemoryToolError,
  type MemoryToolError,
  type MemoryToolInputSchema,
  type MemoryToolsOptions,
  runMemoryTool,
} from "./tools/bind-memory-tools.js";
export {
  MEMORY_TOOLS,
  type MemoryToolDefinition,
  type MemoryToolName,
  memoryForgetTool,
  memoryGetTool,
  memoryRecallTool,
  memoryStoreTool,
  memoryToolFields,
} from "./tools/memory-tool-definitions.js";
export {
  assertWritable,
  type MemoryToolContext,
  type MemoryToolEntry,
  type MemoryToolScope,
  scopedNamespace,
  toolEntryOf,
} from "./tools/memory-tool-scope.js";
