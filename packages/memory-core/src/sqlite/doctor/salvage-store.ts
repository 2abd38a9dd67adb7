// `doctor --salvage OUT`: every entry (and kept version) still readable from a damaged store,
// written into a new store at OUT. The damaged file is never written: it is copied (with its log)
// into a temp folder and read there, row by row (readable-rows.ts).
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { MemoryError } from "@claw/memory-api";
import Database from "better-sqlite3";
import { storageFailure } from "../../storage-failure.js";
import { rebuildHeader } from "./header-rebuild.js";
import { readableRows, scannableRows } from "./readable-rows.js";
import { type RebuildRows, writeRebuiltStore } from "./rebuilt-store.js";

/** What a salvage copied out of a damaged store. */
export interface SalvageReport {
  /** The new store. */
  path: string;
  /** Entries written to it. */
  saved: number;
  /** Entries the damaged store was known to hold that could not be read. */
  lost: number;
  versionsSaved: number;
  versionsLost: number;
}

/** What a damaged store still gives: the rows to rebuild it from, and the ids known but unreadable. */
export interface Salvageable {
  rows: RebuildRows;
  lostEntries: number[];
  lostVersions: number[];
}

/** The rows a damaged store still gives, read from a copy; MemoryError CORRUPT when none can be. */
export function readSalvageable(sourcePath: string): Salvageable {
  const folder = mkdtempSync(join(tmpdir(), "claw-salvage-"));
  try {
    const copy = join(folder, "brain.db");
    copyFileSync(sourcePath, copy);
    const withLog = existsSync(`${sourcePath}-wal`);
    if (withLog) copyFileSync(`${sourcePath}-wal`, `${copy}-wal`);
    let db: Database.Database;
    try {
      db = openReadable(copy);
    } catch (error) {
      // A damaged header: written again on the copy, the pages after it read as they are.
      if (!rebuildHeader(copy, withLog)) throw storageFailure(error, `cannot read ${sourcePath} at all`);
      try {
        db = openReadable(copy);
      } catch {
        throw storageFailure(error, `cannot read ${sourcePath} at all`);
      }
    }
    try {
      const entries = readableRows(db, "memories", "rid");
      const versions = tableExists(db, "memory_versions")
        ? readableRows(db, "memory_versions", "rowid")
        : { rows: [], lost: [], damaged: false };
      return {
        rows: {
          entries: entries.rows,
          versions: versions.rows,
          meta: scannableRows(db, "meta"),
          cache: tableExists(db, "embedding_cache") ? scannableRows(db, "embedding_cache") : [],
        },
        lostEntries: entries.lost,
        lostVersions: versions.lost,
      };
    } finally {
      db.close();
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Salvages `sourcePath` into a new store at `outPath` (INVALID_INPUT when it exists already). */
export function salvageStore(sourcePath: string, outPath: string): SalvageReport {
  const out = resolve(outPath);
  if (out === resolve(sourcePath)) {
    throw MemoryError.invalidInput("out", "must not be the damaged database itself");
  }
  if (existsSync(out)) throw MemoryError.invalidInput("out", `${outPath} exists already; name a new file`);
  const read = readSalvageable(sourcePath);
  const written = writeRebuiltStore(out, read.rows);
  return {
    path: out,
    saved: written.entries,
    lost: read.lostEntries.length,
    versionsSaved: written.versions,
    versionsLost: read.lostVersions.length,
  };
}

function openReadable(path: string): Database.Database {
  const db = new Database(path);
  try {
    db.prepare("SELECT count(*) FROM sqlite_schema").get();
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

function tableExists(db: Database.Database, name: string): boolean {
  try {
    return (
      db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?").get(name) !== undefined
    );
  } catch {
    return false;
  }
}
