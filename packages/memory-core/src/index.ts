export {
  applyEnvironment,
  type Environment,
  POSTGRES_URL_VARIABLE,
  PROVIDER_KEY_VARIABLES,
} from "./config/config-environment.js";
export { camelToSnake } from "./config/config-keys.js";
export {
  DEFAULT_CONFIG,
  type MemoryConfig,
  type MemoryConfigInput,
  type MemorySettings,
  memoryConfigSchema,
  type PostgresSettings,
  type ProviderSettings,
  type ServerSettings,
  type ServerTokenSettings,
} from "./config/config-schema.js";
export { loadConfig, loadConfigFromToml } from "./config/load-config.js";
export { parseConfig } from "./config/parse-config.js";
export { CONFIG_FILE_NAME, resolveConfig } from "./config/resolve-config.js";
export { type CreateMemoryOptions, createMemory } from "./create-memory.js";
export { backfillMissing, createBackendEmbedder } from "./embedding/backend-embedder.js";
export { DeferredQueue, type DeferredQueueOptions } from "./embedding/deferred-queue.js";
export {
  EmbeddingWorker,
  type EmbeddingWorkerOptions,
  type VectorCache,
  type VectorRows,
  workerSettingsOf,
} from "./embedding/embedding-worker.js";
export {
  createHashingEmbeddingProvider,
  type HashingEmbeddingOptions,
} from "./embedding/hashing-embedding-provider.js";
export {
  CHARS_PER_TOKEN,
  clipText,
  maxInputChars,
  requestEmbeddings,
  tokenBudgetBatches,
} from "./embedding/provider-request.js";
export {
  DEFAULT_LOCAL_MODEL,
  type ModuleImporter,
  type ResolvedProvider,
  resolveEmbeddingProvider,
} from "./embedding/resolve-provider.js";
export { type ResolvedGenerator, resolveTextGenerator } from "./embedding/resolve-text-generator.js";
export { DEFAULT_RETRY_POLICY, type RetryPolicy, withRetries } from "./embedding/retry-policy.js";
export { settleWithin } from "./embedding/settle-within.js";
export {
  type BackendMemory,
  type BackendMemoryOptions,
  createBackendMemory,
} from "./facade/backend-memory.js";
export { type EntryInput, validateEntries } from "./facade/entry-write.js";
export { EXPORT_PAGE_SIZE, exportPages } from "./facade/export-pages.js";
export type { EntryFilter, RecallRequest } from "./facade/memory-requests.js";
export { writeFileAtomic } from "./fs/write-file-atomic.js";
export { attachMemoryContext, type MemoryContext, memoryContextOf } from "./memory-context.js";
export {
  type MigrateMemoryOptions,
  type MigrateMemoryReport,
  migrateMemory,
} from "./migrate-memory.js";
export { NoneMemory } from "./none-memory.js";
export { POSTGRES_PACKAGE, type PostgresOpenOptions } from "./open-postgres.js";
export { HotCache, recallCacheKey } from "./recall/hot-cache.js";
export { bm25ToScore, strengthOf } from "./recall/keyword-score.js";
export { mmrRerank } from "./recall/mmr.js";
export {
  type RecallEngineDeps,
  type RecallEngineRequest,
  type RecallEngineSettings,
  type RecalledRow,
  type RecallRow,
  type RecallSource,
  runRecallEngine,
  type ScoredRow,
  type VectorHit,
} from "./recall/recall-engine.js";
export { rrfMerge } from "./recall/rrf-merge.js";
export { lendToNeighbours } from "./recall/session-neighbours.js";
export { byCoverage, termCoverage } from "./recall/term-coverage.js";
export { blobToFloat32, cosineSimilarity, float32ToBlob, l2Normalize } from "./recall/vector-math.js";
export { weightedMerge } from "./recall/weighted-merge.js";
export { type EntryRow, entryColumns, rowToEntry } from "./sqlite/reads/entry-row.js";
export { SCHEMA_VERSION } from "./sqlite/schema/schema.js";
export { SqliteMemory, type SqliteMemoryOptions } from "./sqlite/sqlite-memory.js";
export type { EntryWrite } from "./sqlite/writes/upsert-entry.js";
export { chunkMarkdown } from "./text/chunk-markdown.js";
export { contentHash } from "./text/content-hash.js";
export { ageInDays, applyDecay } from "./text/decay.js";
export { dateContext, entryContext } from "./text/entry-context.js";
export { buildFtsQuery, ftsTermsOf } from "./text/fts-query.js";
export { scoreImportance } from "./text/importance.js";
export { jaccardSimilarity, tokenSet } from "./text/jaccard.js";
export { extractLikeKeywords, likePattern } from "./text/like-keywords.js";
export {
  cjkBigrams,
  containsCjk,
  isCjkChar,
  isStopWord,
  toFtsIndexText,
  tokenizeWords,
} from "./text/tokenizer.js";
export { parseTimestamp, toIsoTimestamp } from "./timestamps.js";
export * as inputChecks from "./validate-input.js";
