// Memory.backup() on SQLite: SQLite's online backup API (better-sqlite3's db.backup) copies the
// database while writes go on, into a temp file beside the destination. The copy is made standalone
// (rollback journal, no -wal/-shm), opened read-only and checked (integrity_check, the entries
// table), fsynced, and only then renamed onto the destination: a crash or a failed check leaves
// the destination as it was.
import { mkdir, rename, stat, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { BackupOptions, BackupReport, BackupRequest } from "@claw/memory-api";
import { isMemoryError, MemoryError } from "@claw/memory-api";
import Database from "better-sqlite3";
import { storageFailure } from "../../storage-failure.js";
import {
  assertNotLiveDatabase,
  removeWithCompanions,
  syncFile,
  syncFolder,
  tempBeside,
} from "./backup-files.js";
import { checkStoreFile, type StoreFileFacts, StoreFileProblem } from "./store-file-check.js";

/** Pages copied per step until another connection's write restarts the copy. */
const PAGES_PER_STEP = 256;
/** The largest step better-sqlite3 takes: every remaining page at once. */
const WHOLE = 0x7fffffff;
/** Restarts after which one step copies everything (under one read snapshot, so no more restart). */
const RESTARTS_BEFORE_WHOLE = 4;

export interface OnlineBackupDeps {
  /** The check of the copy (tests replace it to see a failed one). */
  check?: (path: string) => StoreFileFacts;
}

/**
 * Copies `db` (the live database at `dbPath`) to `request.path`. INVALID_INPUT `path` for the live
 * database or one of its companion files; STORAGE (or STORAGE_FULL) when the copy fails or fails
 * its check, the temp file then removed. An error thrown by `onProgress` stops the copy and is
 * thrown as it is.
 */
export async function onlineBackup(
  db: Database.Database,
  dbPath: string,
  request: BackupRequest,
  deps: OnlineBackupDeps = {},
): Promise<BackupReport> {
  const { path } = request;
  assertNotLiveDatabase(path, dbPath, "path", "write the backup to another file");
  const progress = progressOf(request.onProgress);
  const temp = tempBeside(path, "backup");
  try {
    await mkdir(dirname(path), { recursive: true });
    // Private from the start, as every file of memories the project writes (writeFileAtomic):
    // SQLite copies into the empty file, keeping its mode.
    await writeFile(temp, "", { mode: 0o600, flag: "wx" });
    const copied = await db.backup(temp, { progress: progress.step });
    makeStandalone(temp);
    const facts = (deps.check ?? checkStoreFile)(temp);
    progress.finish(copied.totalPages);
    await syncFile(temp);
    await rename(temp, path);
    await syncFolder(dirname(path));
    return { path, entries: facts.entries, bytes: (await stat(path)).size };
  } catch (error) {
    await removeWithCompanions(temp).catch(() => {});
    if (progress.threw(error) || isMemoryError(error)) throw error;
    if (error instanceof StoreFileProblem) {
      throw new MemoryError(
        "STORAGE",
        `the backup copy failed its check, so ${path} was not written: ${error.message}`,
        { cause: error },
      );
    }
    throw storageFailure(error, `backup to ${path} failed`);
  }
}

/**
 * The copy starts as the live file's pages, marked for a write-ahead log: switched to a rollback
 * journal it opens on its own, read-only too, with no -wal or -shm beside it (open-database.ts
 * turns the log back on when a store opens it).
 */
function makeStandalone(path: string): void {
  const copy = new Database(path, { fileMustExist: true });
  try {
    copy.pragma("journal_mode = DELETE");
  } finally {
    copy.close();
  }
}

interface BackupSteps {
  /** better-sqlite3's progress handler: reports, and returns the pages to copy next. */
  step(progress: { totalPages: number; remainingPages: number }): number;
  /** The last report: every page of the copy. */
  finish(totalPages: number): void;
  /** Whether `error` is one `onProgress` threw. */
  threw(error: unknown): boolean;
}

/**
 * Reports pages copied, `done` never decreasing. Another connection's write between two steps
 * restarts SQLite's copy (remainingPages grows again): each restart makes the steps 4 times as
 * large, and after RESTARTS_BEFORE_WHOLE one step copies everything, so a busy writer cannot keep
 * a backup from finishing.
 */
function progressOf(onProgress: BackupOptions["onProgress"]): BackupSteps {
  let done = 0;
  let remaining = Number.POSITIVE_INFINITY;
  let restarts = 0;
  let pages = PAGES_PER_STEP;
  const thrown = new Set<unknown>();
  const report = (total: number) => {
    if (onProgress === undefined) return;
    try {
      onProgress({ done, total });
    } catch (error) {
      thrown.add(error);
      throw error;
    }
  };
  return {
    step({ totalPages, remainingPages }) {
      if (remainingPages > remaining) {
        restarts += 1;
        pages = restarts >= RESTARTS_BEFORE_WHOLE ? WHOLE : pages * 4;
      }
      remaining = remainingPages;
      done = Math.max(done, totalPages - remainingPages);
      report(Math.max(totalPages, done));
      return pages;
    },
    finish(totalPages) {
      done = Math.max(done, totalPages);
      report(done);
    },
    threw: (error) => thrown.has(error),
  };
}
