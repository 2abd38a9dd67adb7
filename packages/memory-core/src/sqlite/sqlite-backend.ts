// SQLite as a MemoryBackend: one file with FTS5, sqlite-vec (or vectors compared in JavaScript)
// and core's embedding worker over its rows. Each call runs under the storage guard: SQLite failures surface as
// STORAGE, and a call after close() as UNAVAILABLE.
import type {
  BulkWrites,
  EmbedJob,
  EntryRefPair,
  EntryWrite,
  MemoryBackend,
  RemovalNote,
} from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";
import { createBackendEmbedder } from "../embedding/backend-embedder.js";
import { EmbeddingWorker, workerSettingsOf } from "../embedding/embedding-worker.js";
import type { BackendOpenOptions } from "../facade/backend-memory.js";
import { onlineBackup } from "./backup/online-backup.js";
import { createDamageWatch } from "./damage-watch.js";
import { openStore } from "./open-store.js";
import type { RankRow } from "./reads/entry-row.js";
import { rowToEntry } from "./reads/entry-row.js";
import * as read from "./reads/read-entries.js";
import { createRowCache } from "./reads/row-cache.js";
import { connectionSizes } from "./schema/open-database.js";
import { createWalCheckpointer } from "./schema/wal-checkpointer.js";
import { createIndexMerge } from "./search/fts-index-merge.js";
import { rebuildFullText } from "./search/rebuild-full-text.js";
import { recalledEntries, sqliteRecallSource } from "./search/recall-source.js";
import { readStatusOf } from "./sqlite-status.js";
import { createStorageGuard } from "./storage-guard.js";
import { createBatchBackfill } from "./vectors/batch-backfill.js";
import { createEmbeddingCache } from "./vectors/embedding-cache.js";
import { sqliteVectorRows } from "./vectors/vector-rows.js";
import { entryOfWrite, jobOf, type WrittenRow } from "./writes/upsert-entry.js";
import * as history from "./writes/version-history.js";
import { createEntryWriter, walPagesOf } from "./writes/write-transactions.js";

export interface SqliteBackendOptions extends BackendOpenOptions {
  /** The database file (`brain.db` in a workspace), or ":memory:". */
  path: string;
  newId: () => string;
  /** false = do not load sqlite-vec (vectors compared in JavaScript). */
  loadVectorExtension: boolean;
}

/** Opens (creating or upgrading) the database. Throws when it cannot. */
export function openSqliteBackend(options: SqliteBackendOptions): MemoryBackend<RankRow> {
  const { settings, logger } = options;
  const listeners: Array<() => void> = [];
  const sizes = connectionSizes(settings);
  const parts = openStore({
    path: options.path,
    provider: options.provider,
    logger,
    newId: options.newId,
    loadVectorExtension: options.loadVectorExtension,
    sizes,
    maxDatabaseMb: settings.maxDatabaseMb,
  });
  const { db, statements, vectors, cap, warnings } = parts;
  let closed = false;
  /** Backups under way: close() lets them finish before the connection goes. */
  const backups = new Set<Promise<unknown>>();
  const assertOpen = () => {
    if (closed) throw new MemoryError("UNAVAILABLE", "this memory is closed");
  };
  const damage = createDamageWatch({ path: options.path, logger, now: options.now });
  const notice = (error: MemoryError) => damage.notice(error);
  const guard = createStorageGuard(assertOpen, notice);
  // Writes are refused once the file is known to be damaged (damage-watch.ts); reads go on.
  const assertWritable = () => {
    assertOpen();
    damage.assertWritable();
  };
  const writeGuard = createStorageGuard(assertWritable, notice);
  const writer = createEntryWriter({
    db,
    statements,
    vectors,
    indexMerge: createIndexMerge(statements, logger),
    newId: options.newId,
    assertOpen: assertWritable,
    guard: writeGuard,
    cacheKib: sizes.cacheKib,
    cap,
  });
  const checkpointer = createWalCheckpointer({
    db,
    logger,
    onDegraded: (warning) => warnings.push(warning),
  });
  const rows = sqliteVectorRows(db, statements, vectors, guard);
  const worker =
    options.provider === null
      ? null
      : new EmbeddingWorker({
          rows,
          cache: createEmbeddingCache(db, { maxEntries: settings.embeddingCacheMax, now: options.now }),
          provider: options.provider,
          logger,
          ...workerSettingsOf(settings),
          onWrite: () => {
            for (const listener of listeners) listener();
          },
        });
  const batchBackfill = createBatchBackfill({
    db,
    statements,
    worker,
    settings,
    logger,
    addWarning: (warning) => warnings.push(warning),
  });
  const embedder =
    worker === null
      ? null
      : createBackendEmbedder(worker, rows, {
          ...(batchBackfill === null ? {} : { backfillWith: batchBackfill }),
          sweep: { intervalMs: settings.embeddingSweepMs, logger },
        });
  const recallDeps = {
    statements,
    rows: createRowCache(statements, settings.sqliteRowCacheSize),
    vectors,
    worker,
    settings,
  };

  function writeAndMerge<T>(
    writes: BulkWrites,
    removals: readonly EntryRefPair[],
    removedAs: RemovalNote,
    collect: (write: EntryWrite, row: WrittenRow) => T,
  ): T[] {
    const pages = walPagesOf(writes.count, writes.contentLength);
    const whole = writer.mergesWhole(writes.count);
    // Rows rewritten leave their old postings behind in the index, as removals do: both are
    // owed to the merge whatever the size of the write.
    let replaced = 0;
    const counted = (write: EntryWrite, row: WrittenRow) => {
      if (row.replaced) replaced++;
      return collect(write, row);
    };
    const results = checkpointer.write(pages, () =>
      writer.writeAll(writes, removals as [string, string][], removedAs, counted, whole),
    );
    const changed = results.length;
    // A whole merge is a bulk write too, with a checkpoint of its own: the worker copies the
    // write's pages meanwhile (10k entries: the flush after ~43 instead of ~63 ms). Any other
    // merge step writes a few pages at most.
    if (whole)
      checkpointer.write(pages, () => writer.mergeIndexAfter(changed, true, removals.length, replaced));
    else writer.mergeIndexAfter(changed, false, removals.length, replaced);
    return results;
  }

  return {
    name: "sqlite",
    embedder,
    warnings,

    async write(writes, removals, removedAs) {
      let contentLength = 0;
      for (const write of writes) contentLength += write.content.length;
      const all = { count: writes.length, contentLength, [Symbol.iterator]: () => writes[Symbol.iterator]() };
      return writeAndMerge(all, removals, removedAs, (write, row) => ({
        entry: entryOfWrite(statements, write, row),
        job: jobOf(write, row),
      }));
    },
    async writeBulk(writes, removals, removedAs) {
      // A keyword-only store makes no jobs: 50k of them, kept to the end of the call, were garbage.
      const jobs: EmbedJob[] = [];
      const collect = (write: EntryWrite, row: WrittenRow) => {
        const job = embedder === null ? null : jobOf(write, row);
        if (job !== null) jobs.push(job);
      };
      const written = writeAndMerge(writes, removals, removedAs, collect).length;
      return { written, jobs };
    },
    async settle() {
      await vectors.settled();
      await checkpointer.settled();
    },
    async deleteRefs(refs, note) {
      return writer.mergeIndexAfterRemoval(writer.deleteRefs(refs as [string, string][], note));
    },
    async deleteExpired(note) {
      const where = "m.expires_at IS NOT NULL AND m.expires_at <= ?";
      return writer.mergeIndexAfterRemoval(writer.deleteWhere(where, [note.at], note));
    },
    async deleteNamespace(namespace) {
      const purge = () => history.purgeNamespaceHistory(statements, namespace);
      return writer.mergeIndexAfterRemoval(writer.deleteWhere("m.namespace = ?", [namespace], purge));
    },
    async deleteSession(sessionId) {
      const purge = () => history.purgeSessionHistory(statements, sessionId);
      return writer.mergeIndexAfterRemoval(writer.deleteWhere("m.session_id = ?", [sessionId], purge));
    },
    history: async (namespace, key, limit) =>
      guard(() => history.readHistory(statements, namespace, key, limit)),
    pruneHistory: async (retention, now) =>
      writeGuard(() => db.transaction(() => history.pruneVersions(statements, retention, now)).immediate()),

    get: async (namespace, key, aliveAt) => guard(() => read.getEntry(statements, namespace, key, aliveAt)),
    list: async (filter, limit, offset) => guard(() => read.listEntries(statements, filter, limit, offset)),
    count: async (namespace, category, aliveAt) =>
      guard(() => read.countEntries(statements, namespace, category, aliveAt)),
    topCore: async (namespace, limit, aliveAt) =>
      guard(() => read.topCore(statements, namespace, limit, aliveAt)),
    exportAll: async (filter, withEmbeddings) =>
      guard(() => read.exportEntries(statements, filter, withEmbeddings)),
    exportPage: async (filter, withEmbeddings, afterRid, limit) =>
      guard(() =>
        read
          .exportPage(statements, filter, withEmbeddings, afterRid, limit)
          .map((row) => ({ rid: row.rid, entry: rowToEntry(row) })),
      ),

    recallSource: (request) => sqliteRecallSource(recallDeps, request),
    recalledEntries: async (recalled, withEmbeddings) =>
      guard(() => recalledEntries(recallDeps, recalled, withEmbeddings)),

    // `PRAGMA data_version` moves only on other connections' commits (a second process on the
    // same brain.db) and costs microseconds; the façade clears its cache after its own writes.
    changeStamp: async () => guard(() => String(statements.get("PRAGMA data_version").pluck().get())),
    onChange: (listener) => {
      listeners.push(listener);
    },

    rebuildKeywordIndex: async () => writeGuard(() => rebuildFullText(db, statements)),
    async clearVectors() {
      writeGuard(() =>
        db.prepare("UPDATE memories SET embedding = NULL, embedding_content_hash = NULL").run(),
      );
      vectors.clear();
      if (embedder !== null) vectors.ensure(embedder.provider.dimensions);
    },

    status: async () => {
      assertOpen();
      return readStatusOf({ db, path: options.path, worker, vectors }, damage, notice);
    },
    noteFailure: notice,
    async backup(request) {
      assertOpen();
      const running = onlineBackup(db, options.path, request);
      const tracked: Promise<unknown> = running.catch(() => {}).finally(() => backups.delete(tracked));
      backups.add(tracked);
      return running;
    },
    ping: async () => (db.prepare("SELECT 1 AS ok").get() as { ok: number }).ok === 1,
    async close() {
      closed = true;
      await Promise.all(backups);
      await vectors.close();
      await checkpointer.close();
      statements.clear();
      db.close();
    },
  };
}
