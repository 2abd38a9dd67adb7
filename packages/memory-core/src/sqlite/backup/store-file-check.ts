// Is this file a whole claw-memory SQLite store? Read-only checks shared by backup (its copy) and
// restore (the file to restore): it opens, PRAGMA integrity_check says "ok", it has the entries
// table, and its schema is one this release can open.
import Database from "better-sqlite3";
import { SCHEMA_VERSION } from "../schema/schema.js";

/** What the checks found in a store file that passed them. */
export interface StoreFileFacts {
  /** Rows of the entries table (expired ones included: the file holds them). */
  entries: number;
  /** `meta.schema_version`; 1 for a store of the seed's shape, which has none. */
  schemaVersion: number;
}

/** Why a file is not a store this release can use; `message` says it for a person. */
export class StoreFileProblem extends Error {
  override readonly name = "StoreFileProblem";
}

/** Checks `path` read-only (it is never changed); throws StoreFileProblem when it fails a check. */
export function checkStoreFile(path: string): StoreFileFacts {
  let db: Database.Database;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new StoreFileProblem(`it cannot be opened (${(error as Error).message})`, { cause: error });
  }
  try {
    let integrity: string[];
    try {
      const rows = db.pragma("integrity_check") as Array<{ integrity_check: string }>;
      integrity = rows.map((row) => row.integrity_check);
    } catch (error) {
      throw new StoreFileProblem(`it is not a readable SQLite database (${(error as Error).message})`, {
        cause: error,
      });
    }
    if (integrity.length !== 1 || integrity[0] !== "ok") {
      const first = integrity.slice(0, 3).join("; ");
      throw new StoreFileProblem(`PRAGMA integrity_check failed: ${first}`);
    }
    const has = (name: string) =>
      db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
    if (!has("memories")) throw new StoreFileProblem("it has no memories table (not a claw-memory store)");
    const entries = db.prepare("SELECT count(*) FROM memories").pluck().get() as number;
    const version = has("meta")
      ? Number(db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").pluck().get() ?? 1)
      : 1;
    if (version > SCHEMA_VERSION) {
      throw new StoreFileProblem(
        `it is at schema version ${version}, newer than this claw-memory knows (${SCHEMA_VERSION}): upgrade @claw/memory-core`,
      );
    }
    return { entries, schemaVersion: version };
  } finally {
    db.close();
  }
}
