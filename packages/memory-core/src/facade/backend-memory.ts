// The one Memory: any MemoryBackend (SQLite, PostgreSQL) behind the same validation, defaults,
// recall engine, hot cache, deferred embedding, backfill, reindex and close. A behaviour fixed
// here is fixed for every storage engine.
import type {
  ActorOption,
  BackupOptions,
  BackupReport,
  EmbedTextsOptions,
  EntryRef,
  EntryWrite,
  ExportFilter,
  ForgetManyOptions,
  ForgetOptions,
  HistoryOptions,
  ImportOptions,
  ListOptions,
  Logger,
  MemoryBackend,
  MemoryCategory,
  MemoryEntry,
  MemoryStatus,
  MemoryVersion,
  NamespaceOption,
  ProgressOptions,
  RecallOptions,
  RestoreOptions,
  StoreOptions,
} from "@claw/memory-api";
import { MemoryError, silentLogger } from "@claw/memory-api";
import { DEFAULT_CONFIG, type MemorySettings } from "../config/config-schema.js";
import type { MemoryContext } from "../memory-context.js";
import { uuidV7 } from "../uuid-v7.js";
import * as check from "../validate-input.js";
import type { BackendMemory, BackendMemoryOptions } from "./backend-memory-options.js";
import { backupVia } from "./backup-call.js";
import { writeBulk } from "./bulk-write.js";
import { type CachedRecall, createCachedRecall } from "./cached-recall.js";
import { toEntryWrite } from "./entry-write.js";
import { exportPages } from "./export-pages.js";
import { createHistoryCalls, type HistoryCalls } from "./history-calls.js";
import { actorOf } from "./history-requests.js";
import {
  checkSearchMode,
  countRequestOf,
  entryRefOf,
  exportFilterOf,
  listRequestOf,
  recallRequestOf,
  topCoreRequestOf,
} from "./read-requests.js";
import { checkFilter, checkWrite, storable, storableRefs } from "./storable-text.js";
import { importInputOf, madeWrites, refsOf } from "./write-requests.js";
import { createWriteVectors, type WriteVectors } from "./write-vectors.js";

export type { BackendMemory, BackendMemoryOptions, BackendOpenOptions } from "./backend-memory-options.js";

/** A Memory over `backend`, which it owns: close() closes it. */
export function createBackendMemory(
  backend: MemoryBackend,
  options: BackendMemoryOptions = {},
): BackendMemory {
  return new MemoryFacade(backend, options);
}

class MemoryFacade implements BackendMemory {
  readonly name: string;
  readonly context?: MemoryContext;
  private readonly settings: MemorySettings;
  private readonly logger: Logger;
  private readonly now: () => Date;
  private readonly newId: () => string;
  private readonly actor: string;
  private readonly recaller: CachedRecall;
  private readonly historyCalls: HistoryCalls;
  readonly replaceHistory = (history: Iterable<MemoryVersion>) => this.historyCalls.replaceHistory(history);
  private readonly vectors: WriteVectors;
  private readonly warned = new Set<string>();
  private closing: Promise<void> | null = null;
  /** Set once the beforeClose hooks have run: from then on every call is UNAVAILABLE. */
  private released = false;

  constructor(
    private readonly backend: MemoryBackend,
    private readonly options: BackendMemoryOptions,
  ) {
    this.name = backend.name;
    if (options.context !== undefined) this.context = options.context;
    this.settings = options.settings ?? DEFAULT_CONFIG.memory;
    this.logger = options.logger ?? silentLogger;
    this.now = options.now ?? (() => new Date());
    this.newId = options.newId ?? uuidV7;
    this.actor = actorOf(options.actor, "actor") ?? "library";
    this.recaller = createCachedRecall({
      backend,
      settings: this.settings,
      now: this.now,
      warnOnce: (reason, data) => this.warnOnce(reason, data),
    });
    backend.onChange(() => this.recaller.clear());
    this.vectors = createWriteVectors({
      get embedder() {
        return backend.embedder;
      },
      deferred: this.settings.deferEmbedding ?? true,
      warnOnce: (reason, data) => this.warnOnce(reason, data),
    });
    this.historyCalls = createHistoryCalls({
      backend,
      settings: this.settings,
      now: this.now,
      actor: this.actor,
      afterWrite: (changed) => this.afterWrite(changed),
      embedLater: (jobs) => this.vectors.afterWrite(jobs),
      warnOnce: (reason, data) => this.warnOnce(reason, data),
      assertOpen: () => this.assertOpen(),
    });
  }

  async store(key: string, content: string, options: StoreOptions = {}): Promise<MemoryEntry> {
    check.optionsOf(options, "options");
    this.assertOpen();
    const write = toEntryWrite(
      { key, content, ...options },
      "",
      this.settings,
      this.now(),
      this.newId,
      false,
    );
    write.actor = actorOf(options.actor, "actor") ?? this.actor;
    checkWrite(this.backend, write, "");
    const { keywordOnly } = await this.vectors.beforeWrite(madeWrites([write]));
    const [written] = await this.backend.write(
      [write],
      [],
      this.historyCalls.removalNote("forget", write.actor),
    );
    await this.afterWrite(true);
    if (written === undefined) throw new MemoryError("STORAGE", "the store wrote nothing");
    if (!keywordOnly) await this.vectors.afterWrite(written.job === null ? [] : [written.job]);
    return written.entry;
  }

  async get(key: string, options: NamespaceOption = {}): Promise<MemoryEntry | null> {
    check.optionsOf(options, "options");
    this.assertOpen();
    const ref = entryRefOf(key, options);
    if (!storable(this.backend, ref.namespace, ref.key)) return null;
    return this.backend.get(ref.namespace, ref.key, this.now().toISOString());
  }

  async recall(query: string, options: RecallOptions = {}): Promise<MemoryEntry[]> {
    check.optionsOf(options, "options");
    this.assertOpen();
    options.signal?.throwIfAborted();
    const now = this.now();
    const request = recallRequestOf(query, options, this.settings, now);
    // Expiry is measured on the store's clock, also when the recall asks "as of" another moment.
    request.filter.aliveAt = now.toISOString();
    checkSearchMode(request.mode);
    checkFilter(this.backend, request.filter);
    return this.recaller.recall(request);
  }

  async list(options: ListOptions = {}): Promise<MemoryEntry[]> {
    check.optionsOf(options, "options");
    this.assertOpen();
    const { filter, limit, offset } = listRequestOf(options);
    checkFilter(this.backend, filter);
    filter.aliveAt = this.now().toISOString();
    return this.backend.list(filter, limit, offset);
  }

  async forget(key: string, options: ForgetOptions = {}): Promise<boolean> {
    check.optionsOf(options, "options");
    this.assertOpen();
    const ref = entryRefOf(key, options);
    const note = this.historyCalls.forgetNote("forget", options);
    if (!storable(this.backend, ref.namespace, ref.key)) return false;
    const removed = await this.backend.deleteRefs([[ref.namespace, ref.key]], note);
    await this.afterWrite(removed > 0);
    return removed > 0;
  }

  async forgetMany(refs: Iterable<EntryRef>, options: ForgetManyOptions = {}): Promise<number> {
    check.optionsOf(options, "options");
    this.assertOpen();
    const pairs = storableRefs(this.backend, refsOf(refs, "refs"));
    const note = this.historyCalls.forgetNote(options.action, options);
    if (pairs.length === 0) return 0;
    const removed = await this.backend.deleteRefs(pairs, note);
    await this.afterWrite(removed > 0);
    return removed;
  }

  async history(key: string, options: HistoryOptions = {}): Promise<MemoryVersion[]> {
    return this.historyCalls.history(key, options);
  }

  async restore(key: string, version: number, options: RestoreOptions = {}): Promise<MemoryEntry> {
    return this.historyCalls.restore(key, version, options);
  }

  async purgeExpired(options: ActorOption = {}): Promise<number> {
    return this.historyCalls.purgeExpired(options);
  }

  async embed(texts: readonly string[], options: EmbedTextsOptions = {}): Promise<Float32Array[] | null> {
    check.optionsOf(options, "options");
    this.assertOpen();
    if (!Array.isArray(texts) || texts.some((t) => typeof t !== "string"))
      throw MemoryError.invalidInput("texts", "expected an array of strings");
    const embedder = this.backend.embedder;
    if (embedder === null) return null;
    return embedder.embedTexts(texts, options.purpose ?? "document", options.signal);
  }

  async purgeNamespace(namespace: string): Promise<number> {
    this.assertOpen();
    check.namespaceOf(check.requireText(namespace, "namespace", 256), "namespace", false);
    this.backend.checkText?.(namespace, "namespace");
    const removed = await this.backend.deleteNamespace(namespace);
    await this.afterWrite(removed > 0);
    return removed;
  }

  async purgeSession(sessionId: string): Promise<number> {
    this.assertOpen();
    check.requireText(sessionId, "sessionId", 1024);
    this.backend.checkText?.(sessionId, "sessionId");
    const removed = await this.backend.deleteSession(sessionId);
    await this.afterWrite(removed > 0);
    return removed;
  }

  async count(options: { namespace?: string; category?: MemoryCategory } = {}): Promise<number> {
    check.optionsOf(options, "options");
    this.assertOpen();
    const { namespace, category } = countRequestOf(options);
    checkFilter(this.backend, { namespace, categories: category === undefined ? undefined : [category] });
    return this.backend.count(namespace, category, this.now().toISOString());
  }

  async export(filter: ExportFilter = {}): Promise<MemoryEntry[]> {
    check.optionsOf(filter, "filter");
    this.assertOpen();
    const now = this.now();
    const { where, withEmbeddings } = exportFilterOf(filter, now);
    checkFilter(this.backend, where);
    where.aliveAt = now.toISOString();
    return this.backend.exportAll(where, withEmbeddings);
  }

  exportStream(filter: ExportFilter = {}): AsyncIterable<MemoryEntry> {
    check.optionsOf(filter, "filter");
    this.assertOpen();
    const now = this.now();
    const { where, withEmbeddings } = exportFilterOf(filter, now);
    checkFilter(this.backend, where);
    where.aliveAt = now.toISOString();
    return exportPages(
      (afterRid, limit) => {
        this.assertOpen();
        return this.backend.exportPage(where, withEmbeddings, afterRid, limit);
      },
      (row) => row.entry,
    );
  }

  async import(
    entries: Iterable<Partial<MemoryEntry>> | AsyncIterable<Partial<MemoryEntry>>,
    options: ImportOptions = {},
  ): Promise<number> {
    check.optionsOf(options, "options");
    this.assertOpen();
    // Bad input changes nothing: each entry is validated before it is written, in one transaction.
    const actor = actorOf(options.actor, "actor") ?? this.actor;
    const { writes, removals } = await importInputOf(entries, options, {
      settings: this.settings,
      now: this.now,
      newId: this.newId,
      dimensions: () => this.backend.embedder?.provider.dimensions,
      actor,
      ...(this.backend.checkText === undefined
        ? {}
        : { checkEntry: (write: EntryWrite, field: string) => checkWrite(this.backend, write, field) }),
      // Refs the backend cannot hold name nothing stored: they are dropped, not refused.
      refsOf: (refs, field) => storableRefs(this.backend, refsOf(refs, field)),
    });
    const removedAs = this.historyCalls.removalNote(options.action === "merge" ? "merge" : "forget", actor);
    const ready = await this.vectors.beforeWrite(writes);
    const { written, jobs } = await writeBulk(this.backend, ready.writes, removals, removedAs);
    await this.afterWrite(written > 0 || removals.length > 0);
    if (!ready.keywordOnly) await this.vectors.afterWrite(jobs);
    return written;
  }

  async topCoreMemories(limit: number, options: NamespaceOption = {}): Promise<MemoryEntry[]> {
    check.optionsOf(options, "options");
    this.assertOpen();
    const request = topCoreRequestOf(limit, options, this.settings);
    this.backend.checkText?.(request.namespace, "namespace");
    return this.backend.topCore(request.namespace, request.limit, this.now().toISOString());
  }

  async backup(path: string, options: BackupOptions = {}): Promise<BackupReport> {
    this.assertOpen();
    return backupVia(this.backend, path, options, this.now());
  }

  async healthCheck(): Promise<boolean> {
    if (this.released) return false;
    try {
      return await this.backend.ping();
    } catch (error) {
      this.logger.error("health check failed", { error: (error as Error).message });
      return false;
    }
  }

  async status(): Promise<MemoryStatus> {
    this.assertOpen();
    const status = await this.backend.status();
    const reason = this.options.embeddingUnavailableReason ?? this.backend.embedder?.lastError;
    if (reason !== undefined) status.embeddingUnavailableReason = reason;
    const warnings = [...this.backend.warnings];
    if (this.options.embeddingUnavailableReason) warnings.push(this.options.embeddingUnavailableReason);
    if (warnings.length > 0) status.warnings = warnings;
    return status;
  }

  async reindex(options: ProgressOptions = {}): Promise<number> {
    check.optionsOf(options, "options");
    this.assertOpen();
    await this.flush();
    const total = await this.backend.rebuildKeywordIndex();
    await this.afterWrite(true);
    if (this.backend.embedder === null) {
      options.onProgress?.(total, total);
      return total;
    }
    await this.backend.clearVectors();
    await this.afterWrite(true);
    await this.backfillEmbeddings(64, options);
    return total;
  }

  async backfillEmbeddings(batchSize = 64, options: ProgressOptions = {}): Promise<number> {
    check.optionsOf(options, "options");
    this.assertOpen();
    const size = check.limitOf(batchSize, "batchSize", 64, 4096);
    const embedder = this.backend.embedder;
    if (embedder === null) return 0;
    return embedder.backfill(size, options.onProgress);
  }

  async flush(): Promise<void> {
    await this.backend.embedder?.flush();
    await this.backend.settle?.();
  }

  async close(): Promise<void> {
    this.closing ??= (async () => {
      try {
        // The hooks (e.g. a snapshot on close) still read and write the open store.
        await this.options.beforeClose?.(this);
      } finally {
        this.released = true;
        const timeout = this.settings.closeTimeoutMs;
        // A backfill (one running in the background since start-up, say) stops between batches.
        await this.backend.embedder?.stopBackfill(timeout);
        await this.backend.embedder?.close(timeout);
        await this.backend.close();
        if (this.options.closeProvider) await this.options.embeddings?.close?.();
      }
    })();
    return this.closing;
  }

  /**
   * Every write clears the recall cache (the backend's write moved its change stamp for the
   * other writers' caches); history is pruned when due.
   */
  private async afterWrite(changed: boolean): Promise<void> {
    this.recaller.clear();
    if (!changed) return;
    await this.historyCalls.pruneWhenDue();
  }

  private warnOnce(reason: string, data?: Record<string, unknown>): void {
    if (this.warned.has(reason)) return;
    this.warned.add(reason);
    this.logger.warn(reason, data);
  }

  private assertOpen(): void {
    if (this.released) throw new MemoryError("UNAVAILABLE", "this memory is closed");
  }
}
