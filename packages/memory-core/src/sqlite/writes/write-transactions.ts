// The write path of SqliteMemory: upserts and deletes, each in one immediate transaction, with the
// changes counted for the full-text index merge (the façade clears its recall cache after each).
import type { BulkWrites, RemovalNote } from "@claw/memory-api";
import type { Database } from "better-sqlite3";
import { storageFailureCode } from "../../storage-failure.js";
import type { DatabaseCap } from "../schema/database-cap.js";
import type { StatementCache } from "../schema/statement-cache.js";
import { unindexFullTextWhere } from "../search/fts-index.js";
import type { IndexMerge } from "../search/fts-index-merge.js";
import { unindexFieldsWhere } from "../search/metadata-fields.js";
import type { StorageGuard } from "../storage-guard.js";
import type { VectorIndex } from "../vectors/vector-index.js";
import { refreshNextTurn, turnsWhere } from "./session-turns.js";
import { type EntryWrite, type WrittenRow, writeEntry } from "./upsert-entry.js";
import { recordDeletionWhere } from "./version-history.js";

/**
 * What a deletion leaves in the history: a tombstone per entry (a RemovalNote), or, for a purge,
 * nothing: the function removes the history of what is purged, in the same transaction.
 */
export type DeletionRecord = RemovalNote | (() => void);

export interface EntryWriterOptions {
  db: Database;
  statements: StatementCache;
  vectors: VectorIndex;
  indexMerge: IndexMerge;
  newId: () => string;
  /** Throws UNAVAILABLE once the store is closed. */
  assertOpen: () => void;
  /** Wraps each transaction: SQLite failures surface as STORAGE. */
  guard: StorageGuard;
  /** The connection's page cache, in KiB: a bulk write raises it to BULK_CACHE_KIB at least. */
  cacheKib: number;
  /**
   * The `max_database_mb` cap: deletions that erase what they remove may use its reserve
   * (database-cap.ts), so that a full store can be emptied. Absent: no cap.
   */
  cap?: DatabaseCap;
}

export interface EntryWriter {
  /**
   * Whether a write of `entries` entries is merged whole right after it (fts-index-merge.ts): the
   * caller then passes `whole` to writeAll() and to mergeIndexAfter().
   */
  mergesWhole(entries: number): boolean;
  /**
   * Removes `removals` (recorded as `removedAs`), then upserts `writes`, all in one transaction;
   * returns what `collect` makes of each write that wrote a row, in the transaction. An error
   * thrown by the iteration of `writes` rolls it all back.
   */
  writeAll<T>(
    writes: BulkWrites,
    removals: readonly [string, string][],
    removedAs: RemovalNote,
    collect: (write: EntryWrite, row: WrittenRow) => T,
    whole?: boolean,
  ): T[];
  /** Deletes the entries matching `where` (a condition on `memories AS m`); returns how many. */
  deleteWhere(where: string, params: unknown[], record: DeletionRecord): number;
  /** Deletes the (namespace, key) pairs, all in one transaction; returns how many were found. */
  deleteRefs(pairs: readonly [string, string][], note: RemovalNote): number;
  /**
   * Counts changed entries for the full-text index merge (fts-index-merge.ts), which may follow in
   * a transaction of its own; returns `changed`.
   */
  mergeIndexAfter(changed: number, whole?: boolean, removed?: number, replaced?: number): number;
  /** mergeIndexAfter() for deletions, which always count towards the next merge; returns `removed`. */
  mergeIndexAfterRemoval(removed: number): number;
}

/**
 * A write of at least this many entries (a bulk import) runs with a page cache of BULK_CACHE_KIB
 * at least, and the connection's own size comes back when it ends. Pages are taken as the write
 * touches them, so a small import never holds that much. A 50k-entry import writes ~32 MB of
 * pages: with 64 MB they all stay cached until the commit, +4.6 % entries/s importing 100k entries
 * in two calls against 16 MB (32 MB: +0.9 %; 16 MB was +3–5 % against the seed's 2 MB). It is
 * also a bulk write to the vector index (VectorIndex.bulk): its codes are written at its end, and
 * a growth rebuild it reaches runs inside it.
 */
const BULK_WRITE_ENTRIES = 1_000;
const BULK_CACHE_KIB = 64_000;

/**
 * About how many pages a write of these entries adds to the log: ~1.1 KB an entry (the row, its
 * indexes, the full-text postings of its key and date; 269 pages for 1,000 entries of 60
 * characters) and its text twice (row and index). Used to tell a bulk write (wal-checkpointer.ts).
 */
export function walPagesOf(entries: number, contentLength: number): number {
  return Math.ceil((entries * 1100 + contentLength * 2) / 4096);
}

export function createEntryWriter(options: EntryWriterOptions): EntryWriter {
  const { db, statements, vectors, indexMerge, newId, assertOpen, guard } = options;

  /** Set when a write found the disk full, until one goes through again. */
  let roomWanted = false;

  /**
   * Copies the log into the database file without waiting for anyone (PASSIVE); once it is all
   * copied, the next write starts the log again from its beginning instead of growing it. On a
   * full disk the log would otherwise eat the room freed for the database: it is only copied back
   * at 1 000 pages, which a small disk may never hold. Failing (no room for the file to grow
   * either) costs nothing: it is tried again before the next write.
   */
  function checkpointForRoom(): void {
    try {
      db.pragma("wal_checkpoint(PASSIVE)");
    } catch {
      // Still no room.
    }
  }

  /** One transaction; on rollback the in-memory vector codes may be ahead of the database. */
  function transact<T>(fn: () => T): T {
    if (roomWanted) checkpointForRoom();
    try {
      const result = db.transaction(fn).immediate();
      roomWanted = false;
      return result;
    } catch (error) {
      vectors.invalidate();
      if (storageFailureCode(error) === "STORAGE_FULL") {
        roomWanted = true;
        checkpointForRoom();
      }
      throw error;
    }
  }

  /**
   * A deletion's transaction: under a `max_database_mb` cap, one that erases what it removes may
   * use the cap's reserve (database-cap.ts), so that a full store can be emptied.
   */
  function transactDeletion<T>(erases: boolean, fn: () => T): T {
    const cap = options.cap;
    if (!erases || cap === undefined || cap.pages === null) return transact(fn);
    // Without FTS5's automatic merges, which may rewrite several segments before the deletion
    // frees any page: its deletions are merged later, a step after each write.
    return cap.freeing(() => transact(() => indexMerge.writeWhole(fn)));
  }

  /** Deletes the entries matching `where`; must run inside a transaction. */
  function deleteRows(where: string, params: unknown[], record: DeletionRecord): number {
    if (typeof record === "function") record();
    else recordDeletionWhere(statements, where, params, record);
    vectors.removeWhere(where, params);
    // Turns that followed a deleted one are re-indexed, so no deleted text stays findable
    // through their context.
    const turns = turnsWhere(statements, where, params);
    unindexFullTextWhere(statements, where, params);
    unindexFieldsWhere(statements, where, params);
    const changes = statements.get(`DELETE FROM memories AS m WHERE ${where}`).run(...params).changes;
    for (const turn of turns) refreshNextTurn(statements, turn);
    return changes;
  }

  function deleteWhere(where: string, params: unknown[], record: DeletionRecord): number {
    assertOpen();
    const erases = typeof record === "function" || record.eraseHistory === true;
    return guard(() => transactDeletion(erases, () => deleteRows(where, params, record)));
  }

  /** Deletes the pairs; must run inside a transaction. */
  function removeRefs(pairs: readonly [string, string][], note: RemovalNote): number {
    let removed = 0;
    for (const pair of pairs) removed += deleteRows("m.namespace = ? AND m.key = ?", pair, note);
    return removed;
  }

  function writeAll<T>(
    writes: BulkWrites,
    removals: readonly [string, string][],
    removedAs: RemovalNote,
    collect: (write: EntryWrite, row: WrittenRow) => T,
    whole = false,
  ): T[] {
    assertOpen();
    const raise = writes.count >= BULK_WRITE_ENTRIES && options.cacheKib < BULK_CACHE_KIB;
    if (raise) db.pragma(`cache_size = -${BULK_CACHE_KIB}`);
    try {
      return guard(() =>
        transact(() => {
          const writeRows = () => {
            removeRefs(removals, removedAs);
            const results: T[] = [];
            for (const write of writes) {
              const row = writeEntry(statements, vectors, write, newId);
              if (row !== null) results.push(collect(write, row));
            }
            return results;
          };
          const bulk = () => (writes.count >= BULK_WRITE_ENTRIES ? vectors.bulk(writeRows) : writeRows());
          return whole ? indexMerge.writeWhole(bulk) : bulk();
        }),
      );
    } finally {
      if (raise) db.pragma(`cache_size = -${options.cacheKib}`);
    }
  }

  function mergeIndexAfter(changed: number, whole = false, removed = 0, replaced = 0): number {
    indexMerge.changed(changed, whole, removed, replaced);
    return changed;
  }

  function mergeIndexAfterRemoval(removed: number): number {
    indexMerge.changed(0, false, removed);
    return removed;
  }

  function deleteRefs(pairs: readonly [string, string][], note: RemovalNote): number {
    return guard(() => transactDeletion(note.eraseHistory === true, () => removeRefs(pairs, note)));
  }

  return {
    mergesWhole: (entries) => indexMerge.mergesWhole(entries),
    writeAll,
    deleteWhere,
    deleteRefs,
    mergeIndexAfter,
    mergeIndexAfterRemoval,
  };
}
