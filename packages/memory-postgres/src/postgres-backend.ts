// PostgreSQL + pgvector as a MemoryBackend, for several servers sharing one store. Database
// failures surface as STORAGE (storageError); the shared change counter keeps every server's
// recall cache honest.
import type { EntryRefPair, EntryWrite, Logger, MemoryBackend } from "@claw/memory-api";
import { createBackendEmbedder } from "@claw/memory-core";
import { bumpChanges, readChanges } from "./db/change-stamp.js";
import { endPool, inTransaction, storageError } from "./db/pool.js";
import { clearVectors } from "./embedding/backfill.js";
import { releaseClaims } from "./embedding/claims.js";
import { PENDING_MAX, type PendingCacheEntries } from "./embedding/embedding-cache.js";
import type { StoreParts } from "./open-store.js";
import { postgresRecallSource } from "./search/recall-source.js";
import { createTermPlanner } from "./search/term-stats.js";
import { describeLocation, readStatus } from "./status.js";
import { backupNdjson } from "./store/backup-ndjson.js";
import { stageWrites, writeStaged } from "./store/bulk-write.js";
import { deleteExpired, deleteNamespace, deleteRefs, deleteSession } from "./store/delete-entries.js";
import { type PgEntryRow, rowToEntry } from "./store/entry-row.js";
import * as read from "./store/read-entries.js";
import { rebuildFullText } from "./store/rebuild-fts.js";
import { replaceHistory } from "./store/replace-history.js";
import { assertStorableText } from "./store/text-guard.js";
import { readTurnAround } from "./store/turn-around.js";
import { pruneVersions, readHistory } from "./store/version-history.js";
import { writeEntries } from "./store/write-entries.js";

export interface PostgresBackendOptions {
  parts: StoreParts;
  url: string | undefined;
  textSearchConfig: string;
  sessionContextWeight: number;
  newId: () => string;
  /** Adds this server's listener for vectors it wrote (openStore's onVectorsWritten calls them). */
  listeners: Array<() => void>;
  /** Between sweeps for rows left without a vector whose lease ran out (0 = none). */
  sweepMs: number;
  logger: Logger;
}

/**
 * A store() of one entry with a fresh id runs without BEGIN and COMMIT (autocommit): outside a
 * session it is one upsert, which also moves the change stamp (4 round trips before); a session
 * turn reads its place first and its upsert indexes it with the turn before and re-indexes the
 * turn after it (store/turn-around.ts; 5 statements in a transaction before). Should it overwrite
 * a session turn, the context of the turn that followed it is refreshed by a second statement
 * right after (idempotent, as every refresh); a turn that moves within sessions is written in a
 * transaction, as several writes are.
 */
function singleWrite(writes: readonly EntryWrite[], removals: readonly EntryRefPair[]): EntryWrite | null {
  const [only] = writes;
  return removals.length === 0 && writes.length === 1 && only !== undefined && !only.idFromCaller
    ? only
    : null;
}

export function postgresBackend(options: PostgresBackendOptions): MemoryBackend<PgEntryRow> {
  const { parts, textSearchConfig, listeners } = options;
  const { names } = parts;
  // What this store's recalls know of their terms' frequencies (term-stats.ts).
  const terms = createTermPlanner(names);
  const location = describeLocation(options.url, names.raw);
  const writeOptions = { names, textSearchConfig, newId: options.newId, claimLease: parts.claimLeaseMs };
  /** Runs a query: database failures surface as STORAGE; MemoryErrors and aborts pass through. */
  async function db<T>(fn: (db: StoreParts["db"]) => Promise<T>): Promise<T> {
    try {
      return await fn(parts.db);
    } catch (error) {
      throw storageError(error);
    }
  }
  /** Moves the change stamp after a write outside write() (one that changed something). */
  const noted = async <T>(changed: T): Promise<T> => {
    if (changed !== 0) await bumpChanges(parts.db, names);
    return changed;
  };
  /** Counts deleted rows for the planner's statistics, moves the change stamp; returns how many. */
  const analyzed = async (deleted: number) => {
    await parts.analyzer.changed(deleted);
    return noted(deleted);
  };
  const embedder =
    parts.worker === null
      ? null
      : createBackendEmbedder(parts.worker, parts.rows, {
          sweep: { intervalMs: options.sweepMs, logger: options.logger },
          // A backfill (a reindex's too) gives many rows their vector: the planner must know.
          afterBackfill: () => parts.analyzer.settle(),
        });

  /** An import's writes by COPY (store/bulk-write.ts), in one transaction. */
  const writeByCopy: NonNullable<MemoryBackend["writeBulk"]> = async (writes, removals, removedAs) => {
    // Every write made and encoded first: a bad one throws before anything is sent.
    const staged = stageWrites(writes, options.newId);
    // The vectors this import embedded wait in the embedding cache: one COPY writes them.
    await db(async () => parts.cache?.flush());
    await db(() => parts.bulkIndex.beforeWrite(staged.rows));
    try {
      const result = await db(() =>
        inTransaction(parts.pool, async (tx, client) => {
          await deleteRefs(tx, names, removals, removedAs, textSearchConfig);
          if (staged.rows === 0) await bumpChanges(tx, names);
          return writeStaged(client, tx, staged, { names, textSearchConfig, claimLease: parts.claimLeaseMs });
        }),
      );
      parts.preClaims.add(result.preClaimed);
      await parts.analyzer.changed(result.written + removals.length);
      return { written: result.written, jobs: result.jobs };
    } finally {
      parts.bulkIndex.afterWrite();
    }
  };

  return {
    name: "postgres",
    embedder,
    warnings: parts.warnings,
    checkText: assertStorableText,

    async write(writes, removals, removedAs) {
      // The change stamp moves with the write, in its upsert (db/change-stamp.ts). A single
      // statement also writes the embedding cache's waiting entries (embedding-cache.ts).
      // A bulk import into a small table writes without the HNSW index (bulk-index.ts).
      await db(() => parts.bulkIndex.beforeWrite(writes.length));
      const only = singleWrite(writes, removals);
      const taken: { cache: PendingCacheEntries | null } = { cache: null };
      try {
        const written = await db(async (d) => {
          // A session turn's place, read first; null when it moves (a transaction writes it then).
          const turn = only === null || only.sessionId === null ? null : await readTurnAround(d, names, only);
          if (only !== null && (only.sessionId === null || turn !== null)) {
            taken.cache = parts.cache?.takePending(PENDING_MAX) ?? null;
            return writeEntries(d, writes, {
              ...writeOptions,
              bumpChanges: true,
              cacheEntries: taken.cache,
              turn,
            });
          }
          return inTransaction(parts.pool, async (tx) => {
            await deleteRefs(tx, names, removals, removedAs, textSearchConfig);
            if (writes.length === 0) await bumpChanges(tx, names);
            return writeEntries(tx, writes, { ...writeOptions, bumpChanges: true });
          });
        }).catch((error: unknown) => {
          if (taken.cache !== null) parts.cache?.restore(taken.cache);
          throw error;
        });
        const result = written.map(({ row, hash, missingVector }) => ({
          entry: rowToEntry(row),
          job: missingVector ? { rid: row.rid, namespace: row.namespace, hash, content: row.content } : null,
        }));
        parts.preClaims.add(
          result.flatMap((w, i) => (w.job !== null && written[i]?.preClaimed ? [w.job] : [])),
        );
        // Before the index's idle time starts: a rebuild must not begin during this ANALYZE.
        await parts.analyzer.changed(written.length + removals.length);
        return result;
      } finally {
        parts.bulkIndex.afterWrite();
      }
    },
    // PGlite takes no COPY: without writeBulk, core's import makes every write and calls write().
    ...(parts.copyIn ? { writeBulk: writeByCopy } : {}),
    deleteRefs: (refs, note) => db((d) => deleteRefs(d, names, refs, note, textSearchConfig).then(analyzed)),
    deleteExpired: (note) => db((d) => deleteExpired(d, names, note, textSearchConfig).then(analyzed)),
    deleteNamespace: (namespace) => db((d) => deleteNamespace(d, names, namespace).then(analyzed)),
    deleteSession: (sessionId) => db((d) => deleteSession(d, names, sessionId).then(analyzed)),

    history: (namespace, key, limit) => db((d) => readHistory(d, names, namespace, key, limit)),
    pruneHistory: (retention, now) => db((d) => pruneVersions(d, names, retention, now)),
    // The live rows it moves are indexed again (their full text too): counted as changed.
    replaceHistory: (versions) => db(() => replaceHistory(parts.pool, names, versions).then(analyzed)),

    get: (namespace, key, aliveAt) => db((d) => read.getEntry(d, names, namespace, key, aliveAt)),
    list: (filter, limit, offset) => db((d) => read.listEntries(d, names, filter, limit, offset)),
    count: (namespace, category, aliveAt) =>
      db((d) => read.countEntries(d, names, namespace, category, aliveAt)),
    topCore: (namespace, limit, aliveAt) => db((d) => read.topCore(d, names, namespace, limit, aliveAt)),
    exportAll: (filter, withEmbeddings) => db((d) => read.exportEntries(d, names, filter, withEmbeddings)),
    exportPage: (filter, withEmbeddings, afterRid, limit) =>
      db(async (d) =>
        (await read.exportPage(d, names, filter, withEmbeddings, afterRid, limit)).map((row) => ({
          rid: row.rid,
          entry: rowToEntry(row),
        })),
      ),

    recallSource: (request) =>
      postgresRecallSource(
        {
          ...parts,
          textSearchConfig,
          terms,
          sessionContextWeight: options.sessionContextWeight,
          concurrent: parts.pool.options.max > 1,
        },
        request.filter,
        request.withEmbeddings,
      ),
    recalledEntries: async (recalled) => recalled.map((r) => rowToEntry(r.row, r.score)),

    changeStamp: () => db((d) => readChanges(d, names)),
    onChange: (listener) => {
      listeners.push(listener);
    },

    rebuildKeywordIndex: () => db((d) => rebuildFullText(d, names, textSearchConfig).then(noted)),
    clearVectors: () => db((d) => clearVectors(d, names).then(() => bumpChanges(d, names))),

    status: () =>
      db((d) =>
        readStatus({
          db: d,
          names,
          location,
          worker: parts.worker,
          vectors: parts.vectors,
          schemaVersion: parts.schemaVersion,
        }),
      ),
    backup: (request) => db(() => backupNdjson(parts.pool, names, request)),
    async ping() {
      const { rows } = await parts.db.query<{ ok: number }>("SELECT 1 AS ok");
      return rows[0]?.ok === 1;
    },
    // The embedding cache's entries still waiting for a statement to carry them, and the HNSW
    // index a bulk import set aside.
    settle: () =>
      db(async () => {
        await parts.cache?.flush();
        await parts.bulkIndex.rebuild();
      }),
    async close() {
      // Cache entries left unwritten only cost a provider call later: a failure here is no loss.
      await parts.cache?.flush().catch(() => {});
      // Rows claimed by their write whose job never ran: free for any server's sweep at once.
      const unclaimed = parts.preClaims.takeAll();
      if (unclaimed.length > 0) await releaseClaims(parts.db, names, unclaimed).catch(() => {});
      // Never rejects: a failed build is warned about and left to the next open.
      await parts.bulkIndex.close();
      // A pool that fails to end has nothing left to lose: every write was committed before.
      if (parts.ownsPool) await endPool(parts.pool).catch(() => {});
    },
  };
}
