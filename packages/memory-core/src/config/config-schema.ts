// The one schema of claw-memory's configuration: it is the source of the types, the defaults and the
// validation. Keys are the camelCase forms of the TOML keys (seed 000's `[memory]` table verbatim).
import { z } from "zod";
import {
  curatorProviderSpec,
  embeddingProviderSpec,
  envVarName,
  expected,
  flag,
  httpUrl,
  integerBetween,
  nonEmptyString,
  nonNegativeInteger,
  nonNegativeNumber,
  numberBetween,
  oneOf,
  positiveInteger,
  positiveNumber,
  sha256Hex,
  sqlName,
} from "./config-fields.js";

const weight = () => numberBetween(0, 1);

const conflictModeObjectSchema = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("jaccard") }),
  z.strictObject({
    kind: z.literal("combined"),
    jaccardWeight: weight().default(0.4),
    cosineWeight: weight().default(0.4),
    bm25Weight: weight().default(0.2),
  }),
]);

/** `"jaccard"`, `"combined"` or the object form; the output is always the object form. */
const conflictModeSchema = z.union(
  [
    oneOf(["jaccard", "combined"]).transform((kind) => conflictModeObjectSchema.parse({ kind })),
    conflictModeObjectSchema,
  ],
  expected('"jaccard", "combined" or a table with kind = "jaccard" | "combined"'),
);

const mergeStrategyObjectSchema = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("adaptive") }),
  z.strictObject({ kind: z.literal("rrf"), k: nonNegativeNumber().default(60) }),
  z.strictObject({
    kind: z.literal("weighted"),
    vectorWeight: weight().default(0.7),
    keywordWeight: weight().default(0.3),
  }),
]);

/** `"adaptive"`, `"rrf"`, `"weighted"` or the object form (missing fields filled); the output is
 *  always the object form. */
const mergeStrategySchema = z.union(
  [
    oneOf(["adaptive", "rrf", "weighted"]).transform((kind) => mergeStrategyObjectSchema.parse({ kind })),
    mergeStrategyObjectSchema,
  ],
  expected('"adaptive", "rrf", "weighted" or a table with kind = "adaptive" | "rrf" | "weighted"'),
);

/** The `[memory]` table. */
export const memorySettingsSchema = z.strictObject(
  {
    /** Where entries live: a SQLite file in the workspace, PostgreSQL ([postgres]), or nowhere ("none": calls succeed and keep nothing). */
    backend: oneOf(["sqlite", "none", "postgres"]).default("sqlite"),
    /** autoSaveTurn() consolidates each agent turn (a daily entry, promoted to core when it matters). */
    autoSave: flag().default(true),
    /** Hygiene prunes conversation and daily entries past their retention, and deletes expired entries, every hygiene_interval_hours. */
    hygieneEnabled: flag().default(true),
    /** Hours between two hygiene runs (runHygiene without force skips a run that is not due). */
    hygieneIntervalHours: positiveNumber().default(12),
    /** Conversation entries older than this are pruned by hygiene. */
    conversationRetentionDays: positiveInteger().default(30),
    /** Daily entries older than this are pruned by hygiene. */
    dailyRetentionDays: positiveInteger().default(30),
    /** The newest this many non-superseded entries of each pruned category are never pruned (absent: no floor). */
    minRetentionFloor: nonNegativeInteger().optional(),
    /** The newest this many non-superseded conversation entries are never pruned (default: min_retention_floor, else none). */
    conversationRetentionFloor: nonNegativeInteger().optional(),
    /** The newest this many non-superseded daily entries are never pruned (default: min_retention_floor, else none). */
    dailyRetentionFloor: nonNegativeInteger().optional(),
    /** Write MEMORY_SNAPSHOT.md (the core memories) after start-up and before close. */
    snapshotEnabled: flag().default(false),
    /** Rebuild a missing or nearly empty (< 4 KB) brain.db from MEMORY_SNAPSHOT.md at start-up. */
    autoHydrate: flag().default(true),
    /** Two memories conflict when their similarity + 0.3 × contradiction exceeds this (the newer supersedes the older). */
    conflictThreshold: numberBetween(0, 1).default(0.6),
    /** How similarity is measured for conflicts: "jaccard" (word overlap), or "combined" (0.4 Jaccard + 0.4 cosine + 0.2 BM25 overlap, weights settable in the table form). */
    conflictMode: conflictModeSchema.prefault("combined"),
    /** What recall searches: keyword and vector ("hybrid"), vector only ("embedding") or keyword only ("bm25"); without a provider every mode is keyword-only. */
    searchMode: oneOf(["hybrid", "embedding", "bm25"]).default("hybrid"),
    /** How keyword and vector results are fused: "adaptive", reciprocal rank fusion ("rrf", k = 60) or "weighted" (0.7 vector + 0.3 keyword). */
    mergeStrategy: mergeStrategySchema.prefault("adaptive"),
    /** Embed after the write, in the background (a store returns before its vector exists); absent: true when an embedding provider is set. */
    deferEmbedding: flag().optional(),
    /** Who embeds: "auto" (a local model if present, else the first hosted provider with a key, else keyword-only), "local", "openai", "openrouter", "gemini", "voyage", "custom:<url>" or "none". */
    embeddingProvider: embeddingProviderSpec().default("auto"),
    /** A second provider used when the first cannot be loaded (same forms as embedding_provider). */
    embeddingFallback: embeddingProviderSpec().optional(),
    /** The embedding model (absent: the provider's default, or the local model found). */
    embeddingModel: nonEmptyString().optional(),
    /** Vector dimensions asked of the provider (absent: the model's own). */
    embeddingDims: positiveInteger().optional(),
    /** Vectors kept in the embedding cache (by provider, model and content hash), least recently used dropped first; 0 = no cache. */
    embeddingCacheMax: nonNegativeInteger().default(10_000),
    /** Most tokens (estimated) sent in one embedding request. */
    embeddingBatchTokens: positiveInteger().default(8_000),
    /** Embedding requests in flight at once. */
    embeddingConcurrency: positiveInteger().default(2),
    /** An embedding request not answered after this long fails with TIMEOUT (and is retried for documents). */
    embeddingTimeoutMs: positiveInteger().default(30_000),
    /** Retries of a failed document-embedding request (429, 5xx, timeouts); queries never retry. */
    embeddingMaxRetries: nonNegativeInteger().default(4),
    /** No retry starts, nor waits, past this many ms after the first attempt. */
    embeddingRetryDeadlineMs: positiveInteger().default(60_000),
    /** Backfill and reindex through the provider's batch API (OpenAI Batch, Gemini batch mode) when it has one. */
    embeddingBatchApi: flag().default(false),
    /** Fewer entries missing a vector than this go through normal requests. */
    embeddingBatchApiMinEntries: positiveInteger().default(1_000),
    /** Consecutive failed jobs after which the batch API is no longer used (persisted in `meta`). */
    embeddingBatchApiMaxFailures: positiveInteger().default(2),
    /** Time between status polls of a running job. */
    embeddingBatchApiPollMs: positiveInteger().default(30_000),
    /** A job not finished after this long is cancelled and counts as failed. Default 24 h. */
    embeddingBatchApiTimeoutMs: positiveInteger().default(86_400_000),
    /**
     * Between two sweeps for entries left without a vector that nobody is embedding (a process
     * killed before its queued jobs ran, a lease that ran out); 0 = no sweeping.
     */
    embeddingSweepMs: nonNegativeInteger().default(60_000),
    /** Versions kept per entry in its history, the current one included; 0 = every one. */
    historyMaxVersions: nonNegativeInteger().default(0),
    /** Versions older than this many days are dropped from histories; 0 = kept forever. */
    historyMaxDays: nonNegativeInteger().default(0),
    /** Embed the entries without a vector when the store opens. */
    backfillOnStartup: flag().default(false),
    /** Who answers the curator: "auto" (the first hosted provider with a key), "openai",
     *  "openrouter", "gemini" or "custom:<url>"; "none" disables curation. */
    curatorProvider: curatorProviderSpec().default("auto"),
    /** The curator's chat model (absent: the provider's default). */
    curatorModel: nonEmptyString().optional(),
    /** recallForTurn() adds a [memory context] block of the memories relevant to the message. */
    autoRecall: flag().default(true),
    /** Memories in that block. */
    autoRecallLimit: positiveInteger().default(5),
    /** stableMemoryBlock() puts the core memories in the system prompt (absent: the same as auto_recall). */
    stableMemoryInSystemPrompt: flag().optional(),
    /** The largest content an entry may have, in UTF-8 bytes (INVALID_INPUT past it). */
    maxContentBytes: positiveInteger().default(1_048_576),
    /** A hybrid recall skips the vector search when its best keyword hit's strength × query coverage reaches this (1 = never). */
    ftsEarlyReturnScore: numberBetween(0, 1).default(0.85),
    /** Recent recall results kept in memory, served while nothing was written; 0 = no cache. */
    hotCacheSize: nonNegativeInteger().default(256),
    /** A cached recall result is served for at most this long. */
    hotCacheTtlSeconds: nonNegativeInteger().default(300),
    /** Recency decay: the age at which the decaying part of a score is halved (core memories do not decay). */
    decayHalfLifeDays: positiveNumber().default(7),
    /** The share of a score recency never takes away: score × (f + (1 − f) × 2^(−age/half-life)).
     *  0 = seed 000's formula, where a few weeks bury any match. */
    decayFloor: numberBetween(0, 1).default(0.95),
    /** Re-rank recall results by maximal marginal relevance, trading relevance for variety. */
    mmrEnabled: flag().default(false),
    /** MMR's balance: 1 = relevance only, 0 = variety only. */
    mmrLambda: numberBetween(0, 1).default(0.7),
    /** An entry longer than a passage (100 words) keeps (100 / words)^this of its keyword score
     *  (BM25) in recall: a long text holds a question's words by chance (0 = off). */
    longEntryExponent: nonNegativeNumber().default(0.5),
    /** Share of a keyword hit's score lent to its neighbours in the same session (0 = off). */
    sessionContextWeight: numberBetween(0, 1).default(0.5),
    /** SQLite: most matching entries a keyword query ranks; its most common terms leave the MATCH
     *  (rarest kept) until the rest fit, and count only in the re-rank. 0 = rank every match. */
    keywordRankBudget: nonNegativeInteger().default(5_000),
    /** SQLite: page cache of each connection, in MiB (seed 000: 2). A cache smaller than the log
     *  and the pages a search reads re-reads them from the file on every search. */
    sqliteCacheMib: integerBetween(1, 4_096).default(16),
    /** SQLite: how much of the file each connection reads through a memory map, in MiB (seed
     *  000: 8; SQLite caps it near 2 GiB; 0 = none). Pages past the map are copied in by read(). */
    sqliteMmapMib: integerBetween(0, 2_048).default(2_048),
    /** SQLite: rows each connection keeps in memory for recall, by rowid, while nothing is written
     *  (~0.6 KB each with 150-character contents; with longer ones fewer: at most 1,024 characters
     *  of text per row allowed; 0 = none). */
    sqliteRowCacheSize: nonNegativeInteger().default(16_384),
    /** SQLite: the most the database file may hold, in MiB (`PRAGMA max_page_count`), the storage
     *  quota a host gives a tenant; a write past it is refused with STORAGE_FULL, as on a full
     *  disk. Never below the file's size when opened (the cap is then that size). 0 = no cap. */
    maxDatabaseMb: nonNegativeNumber().default(0),
    /** A recall's limit is capped at this. */
    recallLimitMax: positiveInteger().default(1_000),
    /** close() waits at most this long for a running backfill to stop and queued embeddings to be written. */
    closeTimeoutMs: nonNegativeInteger().default(10_000),
    /** Where local ONNX models are downloaded from. */
    modelBaseUrl: httpUrl().default("https://huggingface.co"),
  },
  expected("a table of memory settings"),
);

/**
 * One `[[server.tokens]]` entry: exactly one of `token` (the token itself), `tokenEnv` (the variable
 * holding it) and `tokenSha256` (its SHA-256 digest, lower-cased: the config then holds no credential).
 */
const serverTokenSchema = z
  .strictObject(
    {
      /** The token itself (warned about in status: store its hash instead; the file must not be readable by others). */
      token: nonEmptyString().optional(),
      /** The environment variable holding the token. */
      tokenEnv: envVarName().optional(),
      /** The token's SHA-256 digest in hex (`claw-memory token create NAME` prints it): the config then holds no credential. */
      tokenSha256: sha256Hex().optional(),
      /** The namespaces the token may use (absent: every namespace). */
      namespaces: z
        .array(nonEmptyString(), expected("an array of namespace names"))
        .min(1, expected("at least one namespace (leave namespaces out for every namespace)"))
        .optional(),
      /** The token may read and recall, not write. */
      readOnly: flag().default(false),
    },
    expected("a table with token_sha256, token_env or token"),
  )
  .superRefine((entry, ctx) => {
    const given = [entry.token, entry.tokenEnv, entry.tokenSha256].filter((value) => value !== undefined);
    if (given.length !== 1) {
      ctx.addIssue({
        code: "custom",
        input: entry,
        message: "expected exactly one of token, token_env or token_sha256",
      });
    }
  });

/** The `[server]` table of the HTTP server app. */
export const serverSettingsSchema = z.strictObject(
  {
    /** The address the server listens on; anything but loopback requires at least one token. */
    host: nonEmptyString().default("127.0.0.1"),
    /** The port the server listens on (0 = any free port). */
    port: integerBetween(0, 65_535).default(7878),
    /** The largest request body (PAYLOAD_TOO_LARGE past it), and the longest line of an NDJSON import. */
    bodyLimitBytes: positiveInteger().default(1_048_576),
    /** Entry routes answer TIMEOUT after this long. */
    requestTimeoutMs: positiveInteger().default(30_000),
    /** Per-token token bucket: the requests a token may make at once. */
    rateLimitBurst: positiveInteger().default(100),
    /** Requests refilled per token per second (0 = no rate limit). */
    rateLimitPerSecond: nonNegativeInteger().default(20),
    /** Threads answering recalls beside the one serving HTTP (SQLite only); 0 = recall on that one. */
    recallWorkers: integerBetween(0, 64).default(2),
    /** A request's recall `limit` is capped at this (and at `memory.recall_limit_max`). */
    recallLimitMax: integerBetween(1, 10_000).default(100),
    /** A request's list `limit` is capped at this. */
    listLimitMax: integerBetween(1, 10_000).default(1_000),
    /** Entries validated and written per transaction while importing NDJSON. */
    importChunkSize: integerBetween(1, 10_000).default(500),
    /** Bad import lines reported in full (all are counted). */
    importErrorsReported: integerBetween(0, 100_000).default(100),
    /** The bearer tokens the server accepts ([[server.tokens]]); none: loopback only, without auth. */
    tokens: z.array(serverTokenSchema, expected("an array of [[server.tokens]] tables")).prefault([]),
  },
  expected("a table of server settings"),
);

/** One `[providers.<name>]` table. */
const providerSettingsSchema = z.strictObject(
  {
    /** The provider's API key (OPENAI_API_KEY, OPENROUTER_API_KEY, GEMINI_API_KEY or VOYAGE_API_KEY override it). */
    apiKey: nonEmptyString().optional(),
    /** The environment variable the API key is read from instead. */
    apiKeyEnv: envVarName().optional(),
    /** The API's base URL (a proxy, a compatible server). */
    baseUrl: httpUrl().optional(),
    /** The model asked for (default: the provider's default embedding model). */
    model: nonEmptyString().optional(),
  },
  expected("a table of provider settings"),
);

/** The `[postgres]` table, read when `backend = "postgres"` (the apps fill `url` from CLAW_MEMORY_PG_URL). */
const postgresSettingsSchema = z.strictObject(
  {
    /** A libpq connection string, e.g. postgres://user:password@host:5432/claw. */
    url: nonEmptyString().optional(),
    /** The schema holding claw-memory's tables; created when missing. */
    schema: sqlName().default("public"),
    /** The language-aware text search configuration, besides 'simple' (e.g. "english", "german"). */
    textSearchConfig: sqlName(true).default("english"),
    /** Connections per server process. */
    poolMax: positiveInteger().default(10),
    /** Statements prepared once per connection; false behind PgBouncer in transaction mode before 1.21. */
    preparedStatements: flag().default(true),
    /**
     * Most memory (MB) building the vector index may take (maintenance_work_mem; the role's own
     * setting when higher). A graph larger than this is built partly on disk, several times slower,
     * and status() says so: ~1 KB a row at 64 dimensions, ~7 KB at 1536.
     */
    indexBuildMemoryMb: positiveInteger().default(1024),
  },
  expected("a table of postgres settings"),
);

/** The whole configuration: `[memory]`, `[server]`, `[providers.<name>]` and `[postgres]`. */
export const memoryConfigSchema = z.strictObject(
  {
    memory: memorySettingsSchema.prefault({}),
    server: serverSettingsSchema.prefault({}),
    /** By provider name: "openai", "openrouter", "gemini", "voyage", "local" or a custom name. */
    providers: z
      .record(nonEmptyString(), providerSettingsSchema, expected("a table of [providers.<name>] tables"))
      .prefault({}),
    postgres: postgresSettingsSchema.prefault({}),
  },
  expected("a table of settings"),
);

/**
 * The validated configuration, every default filled in: what loadConfig, parseConfig and resolveConfig
 * return.
 */
export type MemoryConfig = z.output<typeof memoryConfigSchema>;
/** The `[memory]` section: the store, recall, embedding and lifecycle settings. */
export type MemorySettings = MemoryConfig["memory"];
/** The `[server]` section: the HTTP server's address, limits and tokens. */
export type ServerSettings = MemoryConfig["server"];
/**
 * One `[[server.tokens]]` entry: the token (itself, its variable or its SHA-256), its namespaces, read-only.
 */
export type ServerTokenSettings = ServerSettings["tokens"][number];
/** One `[providers.<name>]` table: a provider's API key (or its variable), base URL and model. */
export type ProviderSettings = z.output<typeof providerSettingsSchema>;
/** The `[postgres]` section, read when `backend = "postgres"`. */
export type PostgresSettings = MemoryConfig["postgres"];
/**
 * What parseConfig and createMemory accept: the sections, all optional, plus (as a convenience)
 * any `[memory]` setting at the top level.
 */
export type MemoryConfigInput = z.input<typeof memoryConfigSchema> & z.input<typeof memorySettingsSchema>;

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}

/** Every default, frozen: the configuration an empty file gives. */
export const DEFAULT_CONFIG: MemoryConfig = deepFreeze(memoryConfigSchema.parse({}));
