import type { Logger } from "@claw/memory-api";
import Database from "better-sqlite3";
import * as sqliteVec from "sqlite-vec";

export interface OpenedDatabase {
  db: Database.Database;
  /** sqlite-vec's version when the extension loaded and answered `vec_version()`. */
  vecVersion: string | null;
  /** Why vectors fall back to in-process cosine, when they do. */
  vecUnavailableReason?: string;
}

/** A connection's page cache and memory map (the `sqlite_cache_mib` and `sqlite_mmap_mib` settings). */
export interface ConnectionSizes {
  /** The page cache, in KiB (`PRAGMA cache_size` takes it negated). */
  cacheKib: number;
  /** Bytes of the file read through a memory map. */
  mmapBytes: number;
}

/** The sizes the settings give each connection. */
export function connectionSizes(settings: {
  sqliteCacheMib: number;
  sqliteMmapMib: number;
}): ConnectionSizes {
  return { cacheKib: settings.sqliteCacheMib * 1024, mmapBytes: settings.sqliteMmapMib * 1024 * 1024 };
}

export interface OpenDatabaseOptions {
  logger: Logger;
  busyTimeoutMs?: number;
  loadVectorExtension?: boolean;
  sizes: ConnectionSizes;
}

/** Opens the database with the seed's PRAGMAs and the cache and map sizes asked for; tries to load sqlite-vec. */
export function openDatabase(path: string, options: OpenDatabaseOptions): OpenedDatabase {
  const db = new Database(path, { timeout: options.busyTimeoutMs ?? 5000 });
  try {
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    db.pragma("temp_store = MEMORY");
    db.pragma(`mmap_size = ${options.sizes.mmapBytes}`);
    db.pragma(`cache_size = -${options.sizes.cacheKib}`);
    db.pragma("foreign_keys = ON");
  } catch (error) {
    db.close();
    throw error;
  }
  if (options.loadVectorExtension === false) {
    return {
      db,
      vecVersion: null,
      vecUnavailableReason: "sqlite-vec disabled: vectors are compared in JavaScript",
    };
  }
  try {
    sqliteVec.load(db);
    const row = db.prepare("SELECT vec_version() AS version").get() as { version: string };
    return { db, vecVersion: row.version };
  } catch (error) {
    const reason = `sqlite-vec could not be loaded (${(error as Error).message}); vectors are compared in JavaScript`;
    options.logger.warn(reason);
    return { db, vecVersion: null, vecUnavailableReason: reason };
  }
}
