// The same Memory on PostgreSQL + pgvector: the façade (createBackendMemory) over postgresBackend.
import { MemoryError, silentLogger } from "@claw/memory-api";
import {
  type BackendMemory,
  inputChecks as check,
  createBackendMemory,
  DEFAULT_CONFIG,
  uuidV7,
} from "@claw/memory-core";
import { storageError } from "./db/pool.js";
import { DEFAULT_BUILD_MEMORY_MAX_MB, MAX_BUILD_MEMORY_MB } from "./embedding/vector-index.js";
import { openStore } from "./open-store.js";
import { postgresBackend } from "./postgres-backend.js";
import {
  DEFAULT_POOL_MAX,
  DEFAULT_SCHEMA,
  DEFAULT_TEXT_SEARCH_CONFIG,
  type PostgresMemoryOptions,
} from "./postgres-memory-options.js";
import { describeLocation } from "./status.js";

/** A Memory stored in PostgreSQL (its `name` is "postgres"), for several servers sharing one store. */
export type PostgresMemory = BackendMemory;

/** Opens a Memory on PostgreSQL; createMemory uses it for `backend = "postgres"`. */
export const PostgresMemory = {
  /** Connects and creates or upgrades the schema. Throws MemoryError (STORAGE, INVALID_INPUT, …). */
  async open(options: PostgresMemoryOptions): Promise<PostgresMemory> {
    if ((options.url === undefined) === (options.pool === undefined)) {
      throw MemoryError.invalidInput(
        "url",
        "give exactly one of url (a postgres:// connection string) and pool",
      );
    }
    const settings = options.settings ?? DEFAULT_CONFIG.memory;
    const poolMax = check.limitOf(options.poolMax, "poolMax", DEFAULT_POOL_MAX, 10_000);
    const indexBuildMemoryMb = check.limitOf(
      options.indexBuildMemoryMb,
      "indexBuildMemoryMb",
      DEFAULT_BUILD_MEMORY_MAX_MB,
      MAX_BUILD_MEMORY_MB,
    );
    const logger = options.logger ?? silentLogger;
    const now = options.now ?? (() => new Date());
    const newId = options.newId ?? uuidV7;
    const textSearchConfig = options.textSearchConfig ?? DEFAULT_TEXT_SEARCH_CONFIG;
    const provider = options.embeddings ?? null;
    const listeners: Array<() => void> = [];
    let parts: Awaited<ReturnType<typeof openStore>>;
    try {
      parts = await openStore({
        url: options.url,
        pool: options.pool,
        poolMax,
        schema: options.schema ?? DEFAULT_SCHEMA,
        textSearchConfig,
        preparedStatements: options.preparedStatements ?? true,
        indexBuildMemoryMb,
        settings,
        provider,
        logger,
        now,
        onVectorsWritten: () => {
          for (const listener of listeners) listener();
        },
      });
    } catch (error) {
      const where = describeLocation(options.url, options.schema ?? DEFAULT_SCHEMA);
      throw storageError(error, `cannot open the postgres store ${where}`);
    }
    const backend = postgresBackend({
      parts,
      url: options.url,
      textSearchConfig,
      sessionContextWeight: settings.sessionContextWeight,
      newId,
      listeners,
      sweepMs: settings.embeddingSweepMs,
      logger,
    });
    return createBackendMemory(backend, { ...options, settings, logger, now, newId });
  },
};
