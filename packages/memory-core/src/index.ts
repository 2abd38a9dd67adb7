export { applyEnvironment, type Environment, PROVIDER_KEY_VARIABLES } from "./config/config-environment.js";
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
export { writeFileAtomic } from "./fs/write-file-atomic.js";
export { attachMemoryContext, type MemoryContext, memoryContextOf } from "./memory-context.js";
export { NoneMemory } from "./none-memory.js";
export { HotCache } from "./recall/hot-cache.js";
export { mmrRerank } from "./recall/mmr.js";
export { rrfMerge } from "./recall/rrf-merge.js";
export { blobToFloat32, cosineSimilarity, float32ToBlob, l2Normalize } from "./recall/vector-math.js";
export { weightedMerge } from "./recall/weighted-merge.js";
export { contentHash } from "./sqlite/content-hash.js";
export { validateEntries } from "./sqlite/entry-input.js";
export { SCHEMA_VERSION } from "./sqlite/schema.js";
export { SqliteMemory, type SqliteMemoryOptions } from "./sqlite/sqlite-memory.js";
export { chunkMarkdown } from "./text/chunk-markdown.js";
export { ageInDays, applyDecay } from "./text/decay.js";
export { buildFtsQuery } from "./text/fts-query.js";
export { scoreImportance } from "./text/importance.js";
export { jaccardSimilarity, tokenSet } from "./text/jaccard.js";
export { containsCjk, isStopWord, tokenizeWords } from "./text/tokenizer.js";
