// The `max_database_mb` setting: the most the database file may hold, the storage quota a host
// gives a tenant, applied to the writing connection as `PRAGMA max_page_count`. A write that would
// grow the database past it fails with SQLITE_FULL, which the storage guard reports as
// STORAGE_FULL, as on a full disk: the transaction is rolled back, and pages freed by deletions
// (SQLite's freelist) are reused by later writes, so writes resume once entries are removed.
//
// A deletion needs a few pages before it frees any: the full-text index records what it deletes
// in a new segment, and the turns after a deleted one are indexed again. So writes stop a reserve
// short of the cap (a sixteenth of it, 64 KiB to 4 MiB), and a deletion that erases what it
// removes (a purge, a forget that erases the history) may use the reserve: a full store can always
// be emptied. A forget that keeps the history adds a version to it and is a write like any other.
//
// Only the connection that writes entries needs the cap: the WAL checkpoint worker's connection
// (wal-checkpoint-worker.ts) copies pages already committed under it from the log into the file
// and never adds any, and the recall workers only read.
import type { Logger } from "@claw/memory-api";
import type { Database } from "better-sqlite3";

/** SQLite's largest `max_page_count`. */
const MAX_PAGE_COUNT = 4_294_967_294;
const MIB = 1024 * 1024;
/** The reserve kept for deletions: a sixteenth of the cap, between these many pages. */
const RESERVE_SHARE = 1 / 16;
const RESERVE_MIN_BYTES = 64 * 1024;
const RESERVE_MAX_BYTES = 4 * MIB;

/** The cap on a connection, and the room kept for deletions under it. */
export interface DatabaseCap {
  /** The pages the file may hold (the cap); null when there is none. */
  readonly pages: number | null;
  /** The pages writes may fill: the cap less the reserve (never below the file's size at open). */
  readonly writePages: number | null;
  /** Runs `fn`, a transaction that frees at least what it writes, with the reserve open to it. */
  freeing<T>(fn: () => T): T;
}

/** The cap of `mb` MiB in pages of `pageSize` bytes (rounded up), and the pages writes may fill. */
export function capPages(mb: number, pageSize: number): { pages: number; writePages: number } {
  const pages = Math.min(MAX_PAGE_COUNT, Math.ceil((mb * MIB) / pageSize));
  const reserveBytes = Math.min(
    RESERVE_MAX_BYTES,
    Math.max(RESERVE_MIN_BYTES, pages * pageSize * RESERVE_SHARE),
  );
  const reserve = Math.min(Math.floor(pages / 2), Math.ceil(reserveBytes / pageSize));
  return { pages, writePages: pages - reserve };
}

const NO_CAP: DatabaseCap = { pages: null, writePages: null, freeing: (fn) => fn() };

/**
 * Caps `db` at `mb` MiB (0 = no cap: nothing is set). SQLite never sets `max_page_count` below
 * the pages the database already has: a file already larger than the cap may not grow past its
 * current size (logged at info).
 */
export function applyDatabaseCap(db: Database, mb: number, logger: Logger): DatabaseCap {
  if (mb <= 0) return NO_CAP;
  const pageSize = db.pragma("page_size", { simple: true }) as number;
  const { pages, writePages } = capPages(mb, pageSize);
  const setMax = (count: number) => db.pragma(`max_page_count = ${count}`, { simple: true }) as number;
  const current = setMax(writePages);
  if (current > pages) {
    logger.info(
      "the database is larger than max_database_mb already: it may not grow past its current size",
      {
        maxDatabaseMb: mb,
        databaseMb: Math.round(((current * pageSize) / MIB) * 100) / 100,
      },
    );
  }
  return {
    pages,
    writePages,
    freeing(fn) {
      setMax(pages);
      try {
        return fn();
      } finally {
        // Back to the writes' share, or to the file's size if the deletion grew it past that.
        setMax(writePages);
      }
    },
  };
}
