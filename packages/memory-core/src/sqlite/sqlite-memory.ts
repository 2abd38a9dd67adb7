// The embedded default: the façade (createBackendMemory) over one SQLite file.
import { randomUUID } from "node:crypto";
import type { EmbeddingProvider, Logger } from "@claw/memory-api";
import { isMemoryError, MemoryError, silentLogger } from "@claw/memory-api";
import { DEFAULT_CONFIG, type MemorySettings } from "../config/config-schema.js";
import { type BackendMemory, createBackendMemory } from "../facade/backend-memory.js";
import { openSqliteBackend } from "./sqlite-backend.js";

export interface SqliteMemoryOptions {
  /** The database file (`brain.db` in a workspace), or ":memory:". */
  path: string;
  /** The `[memory]` settings; defaults for anything not given. */
  settings?: MemorySettings;
  /** null or absent = keyword-only. */
  embeddings?: EmbeddingProvider | null;
  /** Why no provider is set, for status() (e.g. a missing API key). */
  embeddingUnavailableReason?: string;
  logger?: Logger;
  now?: () => Date;
  newId?: () => string;
  /** Close the provider with the store (createMemory sets it for providers it created). */
  closeProvider?: boolean;
  /** false = do not load sqlite-vec (vectors compared in JavaScript). Default true. */
  loadVectorExtension?: boolean;
  /** Run before the database is released (createMemory's plugin hooks). */
  beforeClose?: (memory: SqliteMemory) => Promise<void>;
}

/** A Memory stored in SQLite (its `name` is "sqlite"). */
export type SqliteMemory = BackendMemory;

export const SqliteMemory = {
  /** Opens (creating or upgrading) the database. Throws MemoryError STORAGE when it cannot. */
  open(options: SqliteMemoryOptions): SqliteMemory {
    const settings = options.settings ?? DEFAULT_CONFIG.memory;
    const logger = options.logger ?? silentLogger;
    const now = options.now ?? (() => new Date());
    const newId = options.newId ?? randomUUID;
    const provider = options.embeddings ?? null;
    let backend: ReturnType<typeof openSqliteBackend>;
    try {
      backend = openSqliteBackend({
        path: options.path,
        settings,
        provider,
        logger,
        now,
        newId,
        loadVectorExtension: options.loadVectorExtension ?? true,
      });
    } catch (error) {
      if (isMemoryError(error)) throw error;
      throw new MemoryError("STORAGE", `cannot open ${options.path}: ${(error as Error).message}`, {
        cause: error,
      });
    }
    return createBackendMemory(backend, {
      settings,
      logger,
      now,
      newId,
      embeddingUnavailableReason: options.embeddingUnavailableReason,
      closeProvider: options.closeProvider ? provider : null,
      beforeClose: options.beforeClose,
    });
  },
};
