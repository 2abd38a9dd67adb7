import { randomUUID } from "node:crypto";
import type {
  EmbedTextsOptions,
  EntryRef,
  ExportFilter,
  ImportOptions,
  ListOptions,
  Logger,
  Memory,
  MemoryCategory,
  MemoryEntry,
  MemoryStatus,
  NamespaceOption,
  ProgressOptions,
  RecallOptions,
  StoreOptions,
} from "@claw/memory-api";
import { MemoryError, silentLogger } from "@claw/memory-api";
import {
  inputChecks as check,
  countRequestOf,
  DEFAULT_CONFIG,
  entryRefOf,
  exportPages,
  listRequestOf,
  type MemorySettings,
  toEntryWrite,
  topCoreRequestOf,
} from "@claw/memory-core";
import { bumpChanges } from "./db/change-stamp.js";
import { inTransaction, storageError } from "./db/pool.js";
import { backfillMissing, clearVectors } from "./embedding/backfill.js";
import type { EmbedJob } from "./embedding/embedding-worker.js";
import { openStore, type StoreParts } from "./open-store.js";
import {
  DEFAULT_POOL_MAX,
  DEFAULT_SCHEMA,
  DEFAULT_TEXT_SEARCH_CONFIG,
  type PostgresMemoryOptions,
} from "./postgres-memory-options.js";
import { CachedRecall } from "./search/cached-recall.js";
import { describeLocation, readStatus } from "./status.js";
import { deleteNamespace, deleteRefs, deleteSession } from "./store/delete-entries.js";
import { rowToEntry } from "./store/entry-row.js";
import { importWritesOf } from "./store/import-input.js";
import * as read from "./store/read-entries.js";
import { rebuildFullText } from "./store/rebuild-fts.js";
import { exportFilterOf, recallRequestOf, refsOf, storable } from "./store/request-input.js";
import { assertStorableEntry, assertStorableText } from "./store/text-guard.js";
import { type WrittenRow, writeEntries } from "./store/write-entries.js";

/** The same Memory on PostgreSQL + pgvector, for several servers sharing one store. */
export class PostgresMemory implements Memory {
  readonly name = "postgres";
  private readonly settings: MemorySettings;
  private readonly logger: Logger;
  private readonly now: () => Date;
  private readonly newId: () => string;
  private readonly textSearchConfig: string;
  private readonly location: string;
  private readonly recaller: CachedRecall;
  private readonly warned = new Set<string>();
  private closing: Promise<void> | null = null;
  /** Set once the beforeClose hooks have run: from then on every call is UNAVAILABLE. */
  private released = false;

  private constructor(
    private readonly options: PostgresMemoryOptions,
    private readonly parts: StoreParts,
    settings: MemorySettings,
  ) {
    this.settings = settings;
    this.logger = options.logger ?? silentLogger;
    this.now = options.now ?? (() => new Date());
    this.newId = options.newId ?? randomUUID;
    this.textSearchConfig = options.textSearchConfig ?? DEFAULT_TEXT_SEARCH_CONFIG;
    this.location = describeLocation(options.url, parts.names.raw);
    this.recaller = new CachedRecall({
      parts,
      settings,
      textSearchConfig: this.textSearchConfig,
      now: this.now,
      warnOnce: (reason, data) => this.warnOnce(reason, data),
    });
    if (options.embeddingUnavailableReason) parts.warnings.push(options.embeddingUnavailableReason);
  }

  /** Connects and creates or upgrades the schema. Throws MemoryError (STORAGE, INVALID_INPUT, …). */
  static async open(options: PostgresMemoryOptions): Promise<PostgresMemory> {
    if ((options.url === undefined) === (options.pool === undefined)) {
      throw MemoryError.invalidInput(
        "url",
        "give exactly one of url (a postgres:// connection string) and pool",
      );
    }
    const settings = options.settings ?? DEFAULT_CONFIG.memory;
    const poolMax = check.limitOf(options.poolMax, "poolMax", DEFAULT_POOL_MAX, 10_000);
    let memory: PostgresMemory | undefined;
    try {
      const parts = await openStore({
        url: options.url,
        pool: options.pool,
        poolMax,
        schema: options.schema ?? DEFAULT_SCHEMA,
        textSearchConfig: options.textSearchConfig ?? DEFAULT_TEXT_SEARCH_CONFIG,
        settings,
        provider: options.embeddings ?? null,
        logger: options.logger ?? silentLogger,
        now: options.now ?? (() => new Date()),
        onVectorsWritten: () => memory?.recaller.clear(),
      });
      memory = new PostgresMemory(options, parts, settings);
      return memory;
    } catch (error) {
      const where = describeLocation(options.url, options.schema ?? DEFAULT_SCHEMA);
      throw storageError(error, `cannot open the postgres store ${where}`);
    }
  }

  async store(key: string, content: string, options: StoreOptions = {}): Promise<MemoryEntry> {
    this.assertOpen();
    const write = toEntryWrite(
      { key, content, ...options },
      "",
      this.settings,
      this.now(),
      this.newId,
      false,
    );
    assertStorableEntry(write, "");
    const [result] = await this.db((db) => writeEntries(db, [write], this.writeOptions()));
    await this.afterWrite(true);
    const written = result as WrittenRow;
    await this.embedLater(written.missingVector ? [jobOf(written)] : []);
    return rowToEntry(written.row);
  }

  async get(key: string, options: NamespaceOption = {}): Promise<MemoryEntry | null> {
    this.assertOpen();
    const { namespace, key: k } = entryRefOf(key, options);
    if (k.includes("\u0000") || namespace.includes("\u0000")) return null; // cannot be stored
    return this.db((db) => read.getEntry(db, this.parts.names, namespace, k));
  }

  async recall(query: string, options: RecallOptions = {}): Promise<MemoryEntry[]> {
    this.assertOpen();
    options.signal?.throwIfAborted();
    const request = recallRequestOf(query, options, this.settings);
    return this.db(() => this.recaller.recall(request));
  }

  async list(options: ListOptions = {}): Promise<MemoryEntry[]> {
    this.assertOpen();
    const { filter, limit, offset } = listRequestOf(options);
    return this.db((db) => read.listEntries(db, this.parts.names, storable(filter), limit, offset));
  }

  async forget(key: string, options: NamespaceOption = {}): Promise<boolean> {
    return (await this.forgetRefs([{ key, namespace: options.namespace }], "")) > 0;
  }

  async forgetMany(refs: Iterable<EntryRef>): Promise<number> {
    return this.forgetRefs(refs, "refs");
  }

  private async forgetRefs(refs: Iterable<EntryRef>, field: string): Promise<number> {
    this.assertOpen();
    const pairs = refsOf(refs, field);
    if (pairs.length === 0) return 0;
    const removed = await this.db((db) => deleteRefs(db, this.parts.names, pairs, this.textSearchConfig));
    await this.afterWrite(removed > 0);
    return removed;
  }

  async embed(texts: readonly string[], options: EmbedTextsOptions = {}): Promise<Float32Array[] | null> {
    this.assertOpen();
    if (!Array.isArray(texts) || texts.some((t) => typeof t !== "string"))
      throw MemoryError.invalidInput("texts", "expected an array of strings");
    const worker = this.parts.worker;
    if (worker === null) return null;
    return this.db(() => worker.embedTexts(texts, options.purpose ?? "document", options.signal));
  }

  async purgeNamespace(namespace: string): Promise<number> {
    this.assertOpen();
    check.namespaceOf(check.requireText(namespace, "namespace", 256), "namespace", false);
    assertStorableText(namespace, "namespace");
    const removed = await this.db((db) => deleteNamespace(db, this.parts.names, namespace));
    await this.afterWrite(removed > 0);
    return removed;
  }

  async purgeSession(sessionId: string): Promise<number> {
    this.assertOpen();
    check.requireText(sessionId, "sessionId", 1024);
    assertStorableText(sessionId, "sessionId");
    const removed = await this.db((db) => deleteSession(db, this.parts.names, sessionId));
    await this.afterWrite(removed > 0);
    return removed;
  }

  async count(options: { namespace?: string; category?: MemoryCategory } = {}): Promise<number> {
    this.assertOpen();
    const { namespace, category } = countRequestOf(options);
    storable({ namespace, categories: category === undefined ? undefined : [category] });
    return this.db((db) => read.countEntries(db, this.parts.names, namespace, category));
  }

  async export(filter: ExportFilter = {}): Promise<MemoryEntry[]> {
    this.assertOpen();
    const { where, withEmbeddings } = exportFilterOf(filter);
    return this.db((db) => read.exportEntries(db, this.parts.names, where, withEmbeddings));
  }

  exportStream(filter: ExportFilter = {}): AsyncIterable<MemoryEntry> {
    this.assertOpen();
    const { where, withEmbeddings } = exportFilterOf(filter);
    return exportPages(
      (afterRid, limit) => {
        this.assertOpen();
        return this.db((db) => read.exportPage(db, this.parts.names, where, withEmbeddings, afterRid, limit));
      },
      (row) => rowToEntry(row),
    );
  }

  async import(
    entries: Iterable<Partial<MemoryEntry>> | AsyncIterable<Partial<MemoryEntry>>,
    options: ImportOptions = {},
  ): Promise<number> {
    this.assertOpen();
    const { writes, removals } = await importWritesOf(entries, options, {
      settings: this.settings,
      now: this.now(),
      newId: this.newId,
      dimensions: this.parts.worker?.provider.dimensions,
    });
    const written = await this.db(() =>
      inTransaction(this.parts.pool, async (tx) => {
        await deleteRefs(tx, this.parts.names, removals, this.textSearchConfig);
        return writeEntries(tx, writes, this.writeOptions());
      }),
    );
    await this.afterWrite(written.length > 0 || removals.length > 0);
    await this.embedLater(written.filter((w) => w.missingVector).map(jobOf));
    return written.length;
  }

  async topCoreMemories(limit: number, options: NamespaceOption = {}): Promise<MemoryEntry[]> {
    this.assertOpen();
    const request = topCoreRequestOf(limit, options, this.settings);
    assertStorableText(request.namespace, "namespace");
    return this.db((db) => read.topCore(db, this.parts.names, request.namespace, request.limit));
  }

  async healthCheck(): Promise<boolean> {
    if (this.released) return false;
    try {
      const { rows } = await this.parts.db.query<{ ok: number }>("SELECT 1 AS ok");
      return rows[0]?.ok === 1;
    } catch (error) {
      this.logger.error("health check failed", { error: (error as Error).message });
      return false;
    }
  }

  async status(): Promise<MemoryStatus> {
    this.assertOpen();
    return this.db((db) =>
      readStatus({
        db,
        names: this.parts.names,
        location: this.location,
        worker: this.parts.worker,
        vectors: this.parts.vectors,
        schemaVersion: this.parts.schemaVersion,
        embeddingUnavailableReason: this.options.embeddingUnavailableReason,
        warnings: this.parts.warnings,
      }),
    );
  }

  async reindex(options: ProgressOptions = {}): Promise<number> {
    this.assertOpen();
    await this.flush();
    const { names } = this.parts;
    const total = await this.db((db) => rebuildFullText(db, names, this.textSearchConfig));
    await this.afterWrite(true);
    if (this.parts.worker === null) {
      options.onProgress?.(total, total);
      return total;
    }
    await this.db((db) => clearVectors(db, names));
    await this.afterWrite(true);
    await this.backfillEmbeddings(64, options);
    return total;
  }

  async backfillEmbeddings(batchSize = 64, options: ProgressOptions = {}): Promise<number> {
    this.assertOpen();
    const size = check.limitOf(batchSize, "batchSize", 64, 4096);
    const worker = this.parts.worker;
    if (worker === null) return 0;
    return this.db((db) =>
      backfillMissing(db, this.parts.names, worker, size, {
        onProgress: options.onProgress,
        isOpen: () => this.assertOpen(),
      }),
    );
  }

  async flush(): Promise<void> {
    await this.parts.worker?.flush();
  }

  async close(): Promise<void> {
    this.closing ??= (async () => {
      try {
        // The hooks (e.g. a snapshot on close) still read and write the open store.
        await this.options.beforeClose?.(this);
      } finally {
        this.released = true;
        await this.parts.worker?.close(this.settings.closeTimeoutMs);
        if (this.parts.ownsPool) await this.parts.pool.end().catch(() => {});
        if (this.options.closeProvider) await this.options.embeddings?.close?.();
      }
    })();
    return this.closing;
  }

  private writeOptions() {
    return { names: this.parts.names, textSearchConfig: this.textSearchConfig, newId: this.newId };
  }

  /** Every write clears this server's recall cache and moves the shared change counter. */
  private async afterWrite(changed: boolean): Promise<void> {
    this.recaller.clear();
    if (changed) await this.db((db) => bumpChanges(db, this.parts.names));
  }

  /** Deferred mode queues the vectors; otherwise they are computed before returning. */
  private async embedLater(jobs: EmbedJob[]): Promise<void> {
    const worker = this.parts.worker;
    if (worker === null || jobs.length === 0) return;
    if (this.settings.deferEmbedding ?? true) {
      worker.enqueue(jobs);
      return;
    }
    try {
      await worker.embedRows(jobs);
    } catch (error) {
      this.warnOnce("embedding failed; entries stay keyword-only until backfill", {
        error: (error as Error).message,
      });
    }
  }

  private warnOnce(reason: string, data?: Record<string, unknown>): void {
    if (this.warned.has(reason)) return;
    this.warned.add(reason);
    this.logger.warn(reason, data);
  }

  private assertOpen(): void {
    if (this.released) throw new MemoryError("UNAVAILABLE", "this memory is closed");
  }

  /** Database failures surface as STORAGE; MemoryErrors and aborts pass through unchanged. */
  private async db<T>(fn: (db: StoreParts["db"]) => Promise<T>): Promise<T> {
    try {
      return await fn(this.parts.db);
    } catch (error) {
      throw storageError(error);
    }
  }
}

function jobOf(written: WrittenRow): EmbedJob {
  return { rid: written.row.rid, content: written.row.content };
}
