export type { BackupOptions, BackupProgress, BackupReport, BackupRequest } from "./backup.js";
export type { Chunk } from "./chunk.js";
export type {
  EmbeddingBatchJobOptions,
  EmbeddingBatchJobs,
  EmbeddingProvider,
  EmbeddingPurpose,
  EmbedOptions,
  TextGenerator,
} from "./embedding-provider.js";
export {
  type HistoryRetention,
  MEMORY_CHANGES,
  type MemoryChange,
  type MemoryVersion,
  type RemovalChange,
  type WriteChange,
} from "./history.js";
export type {
  ConflictScore,
  ConflictSide,
  ConsolidationResult,
  ContradictionSignal,
  CurateReport,
  HygieneReport,
  MergeGroup,
  RetentionConfig,
} from "./lifecycle.js";
export { type Logger, silentLogger } from "./logger.js";
export type { Memory, MemoryStatus } from "./memory.js";
export type {
  BackendEmbedder,
  BulkWriteResult,
  BulkWrites,
  EmbedJob,
  EntryFilter,
  EntryRefPair,
  EntryWrite,
  MemoryBackend,
  RecalledRow,
  RecallRequest,
  RecallRow,
  RecallSource,
  RemovalNote,
  ScoredRow,
  VectorHit,
  WrittenEntry,
} from "./memory-backend.js";
export type {
  ConflictMode,
  MemoryCategory,
  MemoryEntry,
  MemorySource,
  MergeStrategy,
  SearchMode,
} from "./memory-entry.js";
export {
  isMemoryError,
  MEMORY_ERROR_CODES,
  MemoryError,
  type MemoryErrorCode,
  type MemoryErrorOptions,
} from "./memory-error.js";
export type {
  ActorOption,
  EmbedTextsOptions,
  EntryRef,
  ExportFilter,
  ForgetManyOptions,
  ForgetOptions,
  HistoryOptions,
  ImportOptions,
  ListOptions,
  NamespaceOption,
  ProgressOptions,
  RecallOptions,
  RestoreOptions,
  StoreOptions,
} from "./memory-options.js";
export type {
  JsonValue,
  Metadata,
  WhereCondition,
  WhereFilter,
  WhereOperators,
  WhereScalar,
} from "./metadata.js";
export type { MemoryPlugin, PluginContext } from "./plugin.js";
export type { RecallExplanation, RecallKeywordPart } from "./recall-explanation.js";
