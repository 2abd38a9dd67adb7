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
export { plaintextTokenWarnings } from "./config/server-token-warnings.js";
export { type CreateMemoryOptions, createMemory } from "./create-memory.js";
export { createBackendEmbedder } from "./embedding/backend-embedder.js";
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
  DEFAULT_LOCAL_MODEL,
  type ModuleImporter,
  type ResolvedProvider,
  resolveEmbeddingProvider,
} from "./embedding/resolve-provider.js";
export { type ResolvedGenerator, resolveTextGenerator } from "./embedding/resolve-text-generator.js";
export { DEFAULT_RETRY_POLICY, type RetryPolicy, withRetries } from "./embedding/retry-policy.js";
export {
  type BackendMemory,
  type BackendMemoryOptions,
  type BackendOpenOptions,
  createBackendMemory,
} from "./facade/backend-memory.js";
export { validateEntries } from "./facade/entry-write.js";
export { isHistoryLine, type VersionProblem, validateVersions } from "./facade/version-input.js";
export { writeFileAtomic } from "./fs/write-file-atomic.js";
export {
  type ClawPlugin,
  type ClawPluginContext,
  type ConfiguredMemory,
  type MemoryContext,
  memoryContextOf,
} from "./memory-context.js";
export { MAX_METADATA_BYTES, metadataOf } from "./metadata/metadata-value.js";
export { MAX_WHERE_CONDITIONS, MAX_WHERE_VALUES, whereOf } from "./metadata/where-filter.js";
export {
  type MigrateMemoryOptions,
  type MigrateMemoryReport,
  migrateMemory,
} from "./migrate-memory.js";
export { NoneMemory } from "./none-memory.js";
export { POSTGRES_PACKAGE, type PostgresOpenOptions } from "./open-postgres.js";
export {
  type RecalledRow,
  type RecallRow,
  type RecallSource,
  runRecallEngine,
  type ScoredRow,
  type VectorHit,
} from "./recall/recall-engine.js";
export { lendToNeighbours, type SessionNeighbours } from "./recall/session-neighbours.js";
export { byCoverage } from "./recall/term-coverage.js";
export { mergeHits, planTermsByDocuments, type TermPlan } from "./recall/term-plan.js";
export { cosineSimilarity } from "./recall/vector-math.js";
export {
  BEFORE_RESTORE_SUFFIX,
  type RestoreStoreOptions,
  type RestoreStoreReport,
  restoreSqliteStore,
} from "./sqlite/backup/restore-store.js";
export { removeDamageMarker } from "./sqlite/damage-watch.js";
export {
  type DoctorCheck,
  type DoctorOptions,
  type DoctorReport,
  doctorStore,
  type SalvageReport,
} from "./sqlite/doctor/doctor.js";
export { type EntryRow, entryColumns, rowToEntry } from "./sqlite/reads/entry-row.js";
export { type VersionRow, versionOf } from "./sqlite/reads/version-row.js";
export { SCHEMA_VERSION } from "./sqlite/schema/schema.js";
export { SqliteMemory, type SqliteMemoryOptions } from "./sqlite/sqlite-memory.js";
export type { EntryWrite } from "./sqlite/writes/upsert-entry.js";
export {
  type StorageFailureCode,
  storageFailure,
  storageFailureCode,
} from "./storage-failure.js";
export { chunkMarkdown } from "./text/chunk-markdown.js";
export { contentHash } from "./text/content-hash.js";
export { entryContext } from "./text/entry-context.js";
export { ftsTermsOf } from "./text/fts-query.js";
export { scoreImportance } from "./text/importance.js";
export { jaccardSimilarity, tokenSet } from "./text/jaccard.js";
export { extractLikeKeywords, likePattern } from "./text/like-keywords.js";
export { porterStem } from "./text/porter-stem.js";
export { parseTimeBound } from "./text/time-bound.js";
export {
  cjkBigrams,
  isCjkChar,
  isStopWord,
  toFtsIndexText,
  tokenizeWords,
} from "./text/tokenizer.js";
export { parseTimestamp } from "./timestamps.js";
export { uuidV7 } from "./uuid-v7.js";
export * as inputChecks from "./validate-input.js";
