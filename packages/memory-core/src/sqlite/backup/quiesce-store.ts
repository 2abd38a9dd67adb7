// Before a restore replaces the workspace's database: how many entries it holds (a store with
// entries is replaced only with force), and its write-ahead log folded into the file, which is
// switched to a rollback journal so that it is whole on its own once kept as brain.db.before-restore.
import { MemoryError } from "@claw/memory-api";
import Database from "better-sqlite3";
import { storageFailure } from "../../storage-failure.js";

/** How long to wait for another connection's lock before calling the store busy. */
const BUSY_TIMEOUT_MS = 1000;

export interface QuiescedStore {
  /** Entries of the store; null when it cannot be read (a damaged file). */
  entries: number | null;
}

/**
 * Counts the entries of the store at `dbPath` and, unless it is empty or `force` is set, refuses
 * (CONFLICT). Then checkpoints its log and leaves write-ahead logging, which only the one
 * connection to a database may do: CONFLICT when another process has the store open (a server).
 * A store that cannot be read is left as it is (with force), its -wal and -shm to be kept with it.
 */
export function quiesceStore(dbPath: string, force: boolean): QuiescedStore {
  const db = new Database(dbPath, { fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
  try {
    const entries = countEntries(db);
    if (entries !== 0 && !force) {
      const what =
        entries === null
          ? "cannot be read (a damaged file?)"
          : `holds ${entries} ${entries === 1 ? "entry" : "entries"}`;
      throw new MemoryError(
        "CONFLICT",
        `the store at ${dbPath} ${what}: pass --force (force: true) to replace it; it is then kept as ${dbPath}.before-restore`,
      );
    }
    if (entries === null) return { entries };
    let mode: unknown;
    try {
      db.pragma("wal_checkpoint(TRUNCATE)");
      mode = db.pragma("journal_mode = DELETE", { simple: true });
    } catch (error) {
      // A damaged file may count its entries yet fail to checkpoint: with force it is kept as it
      // is, its log beside it.
      if (!isBusy(error) && force) return { entries };
      if (!isBusy(error)) throw storageFailure(error, `cannot checkpoint ${dbPath}`);
    }
    if (mode !== "delete") {
      throw new MemoryError(
        "CONFLICT",
        `the store at ${dbPath} is open in another process (a running \`claw-memory serve\` or agent?): stop it, then restore`,
      );
    }
    return { entries };
  } finally {
    db.close();
  }
}

/** Rows of the entries table (0 when there is none yet); null when the file cannot be read. */
function countEntries(db: Database.Database): number | null {
  try {
    const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'memories'").get();
    if (table === undefined) return 0;
    return db.prepare("SELECT count(*) FROM memories").pluck().get() as number;
  } catch {
    return null;
  }
}

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" && (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED"));
}
