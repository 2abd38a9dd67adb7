// `claw-memory restore FILE` on SQLite: the workspace's database replaced by a backup, the one it
// replaces kept beside it as `brain.db.before-restore`. Nothing is touched until the file has
// passed its checks and has been copied into the workspace; brain.db is then replaced by a rename,
// so that it exists at every moment, whole.
import { existsSync, statSync } from "node:fs";
import { copyFile, link, mkdir, rename, rm } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { isMemoryError, MemoryError } from "@claw/memory-api";
import { storageFailure } from "../../storage-failure.js";
import { damageMarkerPath } from "../damage-watch.js";
import {
  assertNotLiveDatabase,
  COMPANION_SUFFIXES,
  removeWithCompanions,
  syncFile,
  syncFolder,
  tempBeside,
} from "./backup-files.js";
import { quiesceStore } from "./quiesce-store.js";
import { checkStoreFile, type StoreFileFacts, StoreFileProblem } from "./store-file-check.js";

/** The suffix of the replaced database kept beside the restored one. */
export const BEFORE_RESTORE_SUFFIX = ".before-restore";

/** Options of restoreStore: the backup and the database it replaces. */
export interface RestoreStoreOptions {
  /** The backup: a claw-memory SQLite store (what Memory.backup writes on SQLite). */
  file: string;
  /** The database it replaces (`brain.db` in the workspace); created when missing. */
  dbPath: string;
  /** Replace a store that holds entries (or cannot be read). Default false. */
  force?: boolean;
}

/** What restoreStore restored, and where the replaced database was kept. */
export interface RestoreStoreReport {
  /** The restored database (dbPath, absolute). */
  path: string;
  /** Entries in the restored database. */
  entries: number;
  /** The database that was replaced, kept as `<dbPath>.before-restore`; absent when there was none. */
  replaced?: {
    path: string;
    /** Its entries; null when it could not be read (a damaged file, replaced with force). */
    entries: number | null;
  };
}

/**
 * Replaces the store at `dbPath` with the backup `file`. INVALID_INPUT naming `file` when it is not
 * a whole claw-memory store; CONFLICT when the current store holds entries and `force` is not set,
 * or when another process has it open. Open no Memory on `dbPath` meanwhile.
 */
export async function restoreSqliteStore(options: RestoreStoreOptions): Promise<RestoreStoreReport> {
  if (typeof options.file !== "string" || options.file.trim() === "")
    throw MemoryError.invalidInput("file", "must name the backup file to restore");
  const file = resolve(options.file);
  const dbPath = resolve(options.dbPath);
  assertNotLiveDatabase(file, dbPath, "file", "name a backup file, not the store itself");
  const facts = checkBackupFile(file);
  await mkdir(dirname(dbPath), { recursive: true });
  const existing = existsSync(dbPath) ? quiesceStore(dbPath, options.force === true) : null;

  const temp = tempBeside(dbPath, "restore");
  const kept = `${dbPath}${BEFORE_RESTORE_SUFFIX}`;
  try {
    await copyFile(file, temp);
    await syncFile(temp);
    if (existing !== null) {
      await removeWithCompanions(kept);
      await rm(damageMarkerPath(kept), { force: true });
      // A hard link keeps the old file under its new name while brain.db still names it.
      await link(dbPath, kept).catch(() => copyFile(dbPath, kept));
      // What checkpointing could not fold in (a damaged store) goes with it, never onto the new one.
      for (const suffix of COMPANION_SUFFIXES) {
        if (existsSync(`${dbPath}${suffix}`)) await rename(`${dbPath}${suffix}`, `${kept}${suffix}`);
      }
      // The damage recorded for the old file (damage-watch.ts) goes with it, not onto the new one.
      const marker = damageMarkerPath(dbPath);
      if (existsSync(marker)) await rename(marker, damageMarkerPath(kept));
    } else {
      // What a deleted database left behind (a log SQLite would replay onto the new file, a
      // damage marker) belongs to no store now.
      await removeWithCompanions(dbPath);
      await rm(damageMarkerPath(dbPath), { force: true });
    }
    await rename(temp, dbPath);
    await syncFolder(dirname(dbPath));
  } catch (error) {
    await rm(temp, { force: true }).catch(() => {});
    throw isMemoryError(error) ? error : storageFailure(error, `restore into ${dbPath} failed`);
  }
  return {
    path: dbPath,
    entries: facts.entries,
    ...(existing === null ? {} : { replaced: { path: kept, entries: existing.entries } }),
  };
}

/** The backup's facts, or INVALID_INPUT naming `file` with what is wrong with it. */
function checkBackupFile(file: string): StoreFileFacts {
  const invalid = (why: string, cause?: unknown) =>
    MemoryError.invalidInput("file", `${file} is not a claw-memory SQLite store: ${why}`, cause);
  if (!existsSync(file)) throw MemoryError.invalidInput("file", `${file}: no such file`);
  if (!statSync(file).isFile()) throw invalid("it is not a file");
  // Its log may hold writes the file alone does not: a live store, or a copy of one.
  const log = `${file}-wal`;
  if (existsSync(log) && statSync(log).size > 0) {
    throw invalid(
      "a write-ahead log (-wal) lies beside it, so it is open or was copied while open; take a consistent copy with `claw-memory backup`",
    );
  }
  try {
    return checkStoreFile(file);
  } catch (error) {
    if (error instanceof StoreFileProblem) throw invalid(error.message, error);
    throw error;
  }
}
