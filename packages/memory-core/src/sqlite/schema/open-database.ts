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

/** Seed 000's page cache per connection, in KiB, and its memory map, in bytes. */
const SEED_CACHE_KIB = 2000;
const SEED_MMAP_BYTES = 8_388_608;

export interface OpenDatabaseOptions {
  logger: Logger;
  busyTimeoutMs?: number;
  loadVectorExtension?: boolean;
  /** The page cache, in KiB (`PRAGMA cache_size` takes it negated); default: the seed's 2000. */
  cacheKib?: number;
  /** Bytes of the file read through a memory map; default: the seed's 8 MB. */
  mmapBytes?: number;
}

/** Opens the database with the seed's PRAGMAs, or the cache and map sizes asked for; tries to load sqlite-vec. */
export function openDatabase(path: string, options: OpenDatabaseOptions): OpenedDatabase {
  const db = new Database(path, { timeout: options.busyTimeoutMs ?? 5000 });
  try {
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    db.pragma("temp_store = MEMORY");
    db.pragma(`mmap_size = ${options.mmapBytes ?? SEED_MMAP_BYTES}`);
    db.pragma(`cache_size = -${options.cacheKib ?? SEED_CACHE_KIB}`);
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
