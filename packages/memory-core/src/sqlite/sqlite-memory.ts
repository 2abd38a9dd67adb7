// The embedded default: the façade (createBackendMemory) over one SQLite file.
import { silentLogger } from "@claw/memory-api";
import { DEFAULT_CONFIG } from "../config/config-schema.js";
import {
  type BackendMemory,
  type BackendMemoryOptions,
  createBackendMemory,
} from "../facade/backend-memory.js";
import { storageFailure } from "../storage-failure.js";
import { uuidV7 } from "../uuid-v7.js";
import { openSqliteBackend } from "./sqlite-backend.js";

export interface SqliteMemoryOptions extends BackendMemoryOptions {
  /** The database file (`brain.db` in a workspace), or ":memory:". */
  path: string;
  /** false = do not load sqlite-vec (vectors compared in JavaScript). Default true. */
  loadVectorExtension?: boolean;
}

/** A Memory stored in SQLite (its `name` is "sqlite"). */
export type SqliteMemory = BackendMemory;

/** Opens a Memory on a SQLite file; createMemory uses it for `backend = "sqlite"` (the default). */
export const SqliteMemory = {
  /**
   * Opens (creating or upgrading) the database. Throws MemoryError STORAGE when it cannot, and
   * UNAVAILABLE for a database of a newer schema version than this release knows.
   */
  open(options: SqliteMemoryOptions): SqliteMemory {
    const settings = options.settings ?? DEFAULT_CONFIG.memory;
    const logger = options.logger ?? silentLogger;
    const now = options.now ?? (() => new Date());
    const newId = options.newId ?? uuidV7;
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
      throw storageFailure(error, `cannot open ${options.path}`);
    }
    return createBackendMemory(backend, { ...options, settings, logger, now, newId });
  },
};
