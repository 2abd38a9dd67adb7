import { randomUUID } from "node:crypto";
import type {
  EmbeddingProvider,
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
import { isMemoryError, MemoryError, silentLogger } from "@claw/memory-api";
import type { Database } from "better-sqlite3";
import { DEFAULT_CONFIG, type MemorySettings } from "../config/config-schema.js";
import { HotCache, recallCacheKey } from "../recall/hot-cache.js";
import * as check from "../validate-input.js";
import { backfillMissing } from "./backfill.js";
import { type BatchBackfill, createBatchBackfill } from "./batch-backfill.js";
import type { EmbeddingPipeline, EmbedJob } from "./embedding-pipeline.js";
import type { EntryFilter } from "./entry-filter.js";
import { toEntryWrite } from "./entry-input.js";
import { type MemoryRow, rowToEntry } from "./entry-row.js";
import { createIndexMerge, type IndexMerge, unindexFullTextWhere } from "./fts-index.js";
import { readStatus } from "./memory-status.js";
import { openStore } from "./open-store.js";
import * as read from "./read-entries.js";
import { rebuildFullText } from "./rebuild-full-text.js";
import { runRecall } from "./recall-pipeline.js";
import type { StatementCache } from "./statement-cache.js";
import type { VectorIndex } from "./vector-index.js";
import { type EntryWrite, writeEntry } from "./write-entries.js";

export interface SqliteMemoryOptions {
  /** The database file (`brain.db` in a workspace), or ":memory:". */
  path: string;
  /** The `[memory]` settings; defaults for anything not given. */
  settings?: MemorySettings;
  /** null or absent = keyword-only. */
  embeddings?: EmbeddingProvider | null;
  /** Why no provider is set, for status() (e.g. a missing API key). */
  embeddingUnavailableReason?: string;
  logger?: Logger;
  now?: () => Date;
  newId?: () => string;
  /** Close the provider with the store (createMemory sets it for providers it created). */
  closeProvider?: boolean;
  /** false = do not load sqlite-vec (vectors compared in JavaScript). Default true. */
  loadVectorExtension?: boolean;
  /** Run before the database is released (createMemory's plugin hooks). */
  beforeClose?: (memory: SqliteMemory) => Promise<void>;
}

/** Entries read per query by exportStream. */
const EXPORT_PAGE_SIZE = 500;

/** The embedded default: one SQLite file with FTS5, sqlite-vec and the recall pipeline. */
export class SqliteMemory implements Memory {
  readonly name = "sqlite";
  private readonly db: Database;
  private readonly statements: StatementCache;
  private readonly vectors: VectorIndex;
  private readonly embeddings: EmbeddingPipeline | null;
  private readonly hot: HotCache<MemoryEntry[]>;
  private readonly indexMerge: IndexMerge;
  private readonly settings: MemorySettings;
  private readonly logger: Logger;
  private readonly now: () => Date;
  private readonly newId: () => string;
  private readonly warned = new Set<string>();
  private hotDataVersion = -1;
  private readonly warnings: string[] = [];
  /** Vendor batch jobs for large backfills (`embedding_batch_api`); null when they cannot apply. */
  private readonly batchBackfill: BatchBackfill | null;
  private closing: Promise<void> | null = null;
  /** Set once the beforeClose hooks have run: from then on every call is UNAVAILABLE. */
  private released = false;

  private constructor(private readonly options: SqliteMemoryOptions) {
    this.settings = options.settings ?? DEFAULT_CONFIG.memory;
    this.logger = options.logger ?? silentLogger;
    this.now = options.now ?? (() => new Date());
    this.newId = options.newId ?? randomUUID;
    const parts = openStore({
      path: options.path,
      settings: this.settings,
      provider: options.embeddings ?? null,
      logger: this.logger,
      now: this.now,
      newId: this.newId,
      loadVectorExtension: options.loadVectorExtension ?? true,
      onVectorsWritten: () => this.hot.clear(),
    });
    this.db = parts.db;
    this.statements = parts.statements;
    this.indexMerge = createIndexMerge(this.statements, this.logger);
    this.vectors = parts.vectors;
    this.embeddings = parts.embeddings;
    this.warnings.push(...parts.warnings);
    this.hot = new HotCache({
      maxEntries: this.settings.hotCacheSize,
      ttlMs: this.settings.hotCacheTtlSeconds * 1000,
    });
    if (options.embeddingUnavailableReason) this.warnings.push(options.embeddingUnavailableReason);
    this.batchBackfill = createBatchBackfill({
      db: this.db,
      statements: this.statements,
      pipeline: this.embeddings,
      settings: this.settings,
      logger: this.logger,
      addWarning: (warning) => this.warnings.push(warning),
    });
  }

  /** Opens (creating or upgrading) the database. Throws MemoryError STORAGE when it cannot. */
  static open(options: SqliteMemoryOptions): SqliteMemory {
    try {
      return new SqliteMemory(options);
    } catch (error) {
      if (isMemoryError(error)) throw error;
      throw new MemoryError("STORAGE", `cannot open ${options.path}: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }

  private get deferred(): boolean {
    return this.settings.deferEmbedding ?? true;
  }

  async store(key: string, content: string, options: StoreOptions = {}): Promise<MemoryEntry> {
    const write = this.guard(() =>
      toEntryWrite({ key, content, ...options }, "", this.settings, this.now(), this.newId, false),
    );
    const [result] = this.writeAll([write]);
    this.mergeIndexAfter(1);
    await this.embedLater(result?.job ? [result.job] : []);
    return (result as { entry: MemoryEntry }).entry;
  }

  async get(key: string, options: NamespaceOption = {}): Promise<MemoryEntry | null> {
    return this.guard(() =>
      read.getEntry(
        this.statements,
        check.namespaceOf(options.namespace, "namespace", false),
        check.requireText(key, "key", 4096),
      ),
    );
  }

  async recall(query: string, options: RecallOptions = {}): Promise<MemoryEntry[]> {
    this.assertOpen();
    options.signal?.throwIfAborted();
    if (typeof query !== "string") throw MemoryError.invalidInput("query", "expected a string");
    const request = this.guard(() => ({
      query: query.length > 65_536 ? query.slice(0, 65_536) : query,
      limit: check.limitOf(options.limit, "limit", 5, this.settings.recallLimitMax),
      mode: options.mode ?? this.settings.searchMode,
      filter: this.filterOf(options, true),
      minScore: check.optionalNumber(options.minScore, "minScore"),
      withEmbeddings: check.optionalBoolean(options.withEmbeddings, "withEmbeddings") ?? false,
      signal: options.signal,
    }));
    if (!["hybrid", "embedding", "bm25"].includes(request.mode)) {
      throw MemoryError.invalidInput(
        "mode",
        `expected "hybrid", "embedding" or "bm25", got ${String(request.mode)}`,
      );
    }
    const cacheKey = recallCacheKey({ ...request.filter, ...request, filter: undefined, signal: undefined });
    this.dropHotCacheIfChangedElsewhere();
    const cached = this.hot.get(cacheKey);
    if (cached !== undefined) return cached.map((e) => ({ ...e }));
    const entries = await this.guardAsync(() =>
      runRecall(
        {
          statements: this.statements,
          vectors: this.vectors,
          embeddings: this.embeddings,
          settings: this.settings,
          logger: this.logger,
          now: this.now,
          warnOnce: (reason, data) => this.warnOnce(reason, data),
        },
        request,
      ),
    );
    this.hot.set(cacheKey, entries);
    return entries.map((e) => ({ ...e }));
  }

  async list(options: ListOptions = {}): Promise<MemoryEntry[]> {
    return this.guard(() =>
      read.listEntries(
        this.statements,
        {
          namespace: check.namespaceOf(options.namespace, "namespace", true),
          categories:
            options.category === undefined ? undefined : [check.categoryOf(options.category, "category")],
          sessionId: check.optionalText(options.sessionId, "sessionId"),
        },
        check.limitOf(options.limit, "limit", 100, 10_000),
        check.offsetOf(options.offset, "offset"),
      ),
    );
  }

  async forget(key: string, options: NamespaceOption = {}): Promise<boolean> {
    const namespace = this.guard(() => check.namespaceOf(options.namespace, "namespace", false));
    check.requireText(key, "key", 4096);
    return this.mergeIndexAfter(this.deleteWhere("m.namespace = ? AND m.key = ?", [namespace, key])) > 0;
  }

  async forgetMany(refs: Iterable<EntryRef>): Promise<number> {
    this.assertOpen();
    const pairs = this.refsOf(refs, "refs");
    if (pairs.length === 0) return 0;
    return this.mergeIndexAfter(this.guard(() => this.transact(() => this.removeRefs(pairs))));
  }

  async embed(texts: readonly string[], options: EmbedTextsOptions = {}): Promise<Float32Array[] | null> {
    this.assertOpen();
    if (!Array.isArray(texts) || texts.some((t) => typeof t !== "string"))
      throw MemoryError.invalidInput("texts", "expected an array of strings");
    if (this.embeddings === null) return null;
    return this.embeddings.embedTexts(texts, options.purpose ?? "document", options.signal);
  }

  async purgeNamespace(namespace: string): Promise<number> {
    check.namespaceOf(check.requireText(namespace, "namespace", 256), "namespace", false);
    return this.mergeIndexAfter(this.deleteWhere("m.namespace = ?", [namespace]));
  }

  async purgeSession(sessionId: string): Promise<number> {
    check.requireText(sessionId, "sessionId", 1024);
    return this.mergeIndexAfter(this.deleteWhere("m.session_id = ?", [sessionId]));
  }

  async count(options: { namespace?: string; category?: MemoryCategory } = {}): Promise<number> {
    return this.guard(() =>
      read.countEntries(
        this.statements,
        options.namespace === undefined ? undefined : check.namespaceOf(options.namespace, "namespace", true),
        options.category === undefined ? undefined : check.categoryOf(options.category, "category"),
      ),
    );
  }

  async export(filter: ExportFilter = {}): Promise<MemoryEntry[]> {
    const { where, withEmbeddings } = this.guard(() => this.exportFilterOf(filter));
    return this.guard(() => read.exportEntries(this.statements, where, withEmbeddings));
  }

  exportStream(filter: ExportFilter = {}): AsyncIterable<MemoryEntry> {
    const { where, withEmbeddings } = this.guard(() => this.exportFilterOf(filter));
    const page = (afterRid: number) =>
      this.guard(() => read.exportPage(this.statements, where, withEmbeddings, afterRid, EXPORT_PAGE_SIZE));
    return (async function* () {
      for (let rows = page(0); rows.length > 0; rows = page((rows.at(-1) as MemoryRow).rid)) {
        for (const row of rows) yield rowToEntry(row);
        if (rows.length < EXPORT_PAGE_SIZE) return;
      }
    })();
  }

  private exportFilterOf(filter: ExportFilter): { where: EntryFilter; withEmbeddings: boolean } {
    return {
      where: {
        ...this.filterOf({ ...filter, namespace: filter.namespace ?? "*", includeSuperseded: true }, true),
        // ExportFilter has one `category`; filterOf reads RecallOptions' `categories`.
        categories:
          filter.category === undefined ? undefined : [check.categoryOf(filter.category, "category")],
      },
      withEmbeddings: check.optionalBoolean(filter.includeEmbeddings, "includeEmbeddings") ?? false,
    };
  }

  async import(
    entries: Iterable<Partial<MemoryEntry>> | AsyncIterable<Partial<MemoryEntry>>,
    options: ImportOptions = {},
  ): Promise<number> {
    this.assertOpen();
    if (entries === null || typeof entries !== "object")
      throw MemoryError.invalidInput("entries", "expected an iterable");
    const onConflict = options.onConflict ?? "replace";
    if (onConflict !== "replace" && onConflict !== "skip")
      throw MemoryError.invalidInput("onConflict", `expected "replace" or "skip", got ${String(onConflict)}`);
    // Everything is validated before anything is written, so bad input changes nothing.
    const writes: EntryWrite[] = [];
    const dimensions = this.embeddings?.provider.dimensions;
    const at = this.now();
    for await (const entry of entries) {
      const write = toEntryWrite(
        entry,
        `entries[${writes.length}]`,
        this.settings,
        at,
        this.newId,
        true,
        dimensions,
      );
      writes.push(onConflict === "skip" ? { ...write, skipExisting: true } : write);
    }
    const removals = options.remove === undefined ? [] : this.refsOf(options.remove, "remove");
    const results = this.writeAll(writes, removals);
    this.mergeIndexAfter(results.length + removals.length);
    await this.embedLater(results.flatMap((r) => (r.job ? [r.job] : [])));
    return results.length;
  }

  async topCoreMemories(limit: number, options: NamespaceOption = {}): Promise<MemoryEntry[]> {
    return this.guard(() =>
      read.topCore(
        this.statements,
        check.namespaceOf(options.namespace, "namespace", false),
        check.limitOf(limit, "limit", 10, this.settings.recallLimitMax),
      ),
    );
  }

  async healthCheck(): Promise<boolean> {
    if (this.released) return false;
    try {
      return (this.db.prepare("SELECT 1 AS ok").get() as { ok: number }).ok === 1;
    } catch (error) {
      this.logger.error("health check failed", { error: (error as Error).message });
      return false;
    }
  }

  async status(): Promise<MemoryStatus> {
    return this.guard(() =>
      readStatus({
        db: this.db,
        path: this.options.path,
        embeddings: this.embeddings,
        vectors: this.vectors,
        embeddingUnavailableReason: this.options.embeddingUnavailableReason,
        warnings: this.warnings,
      }),
    );
  }

  async reindex(options: ProgressOptions = {}): Promise<number> {
    this.assertOpen();
    await this.flush();
    const total = this.guard(() => rebuildFullText(this.db, this.statements));
    this.hot.clear();
    if (this.embeddings === null) {
      options.onProgress?.(total, total);
      return total;
    }
    this.guard(() =>
      this.db.prepare("UPDATE memories SET embedding = NULL, embedding_content_hash = NULL").run(),
    );
    this.vectors.clear();
    this.vectors.ensure(this.embeddings.provider.dimensions);
    await this.backfillEmbeddings(64, options);
    return total;
  }

  async backfillEmbeddings(batchSize = 64, options: ProgressOptions = {}): Promise<number> {
    this.assertOpen();
    const size = check.limitOf(batchSize, "batchSize", 64, 4096);
    if (this.embeddings === null) return 0;
    const pipeline = this.embeddings;
    const normal = (onProgress?: (done: number, total: number) => void) =>
      backfillMissing(this.db, this.statements, pipeline, size, onProgress);
    if (this.batchBackfill === null) return normal(options.onProgress);
    return this.batchBackfill.backfill(normal, options.onProgress);
  }

  async flush(): Promise<void> {
    await this.embeddings?.flush();
  }

  async close(): Promise<void> {
    this.closing ??= (async () => {
      try {
        // The hooks (e.g. a snapshot on close) still read and write the open store.
        await this.options.beforeClose?.(this);
      } finally {
        this.released = true;
        this.batchBackfill?.abort();
        await this.embeddings?.close(this.settings.closeTimeoutMs);
        this.statements.clear();
        this.db.close();
        if (this.options.closeProvider) await this.options.embeddings?.close?.();
      }
    })();
    return this.closing;
  }

  /** Validated (namespace, key) pairs; `field` names the option in errors. */
  private refsOf(refs: Iterable<EntryRef>, field: string): [string, string][] {
    if (refs === null || typeof refs !== "object" || !(Symbol.iterator in refs))
      throw MemoryError.invalidInput(field, "expected an iterable of { key, namespace? }");
    const pairs: [string, string][] = [];
    for (const ref of refs) {
      const at = `${field}[${pairs.length}]`;
      if (ref === null || typeof ref !== "object")
        throw MemoryError.invalidInput(at, "expected { key, namespace? }");
      pairs.push([
        check.namespaceOf(ref.namespace, `${at}.namespace`, false),
        check.requireText(ref.key, `${at}.key`, 4096),
      ]);
    }
    return pairs;
  }

  /** Deletes the pairs; must run inside a transaction. */
  private removeRefs(pairs: readonly [string, string][]): number {
    let removed = 0;
    for (const pair of pairs) removed += this.deleteWhere("m.namespace = ? AND m.key = ?", pair);
    return removed;
  }

  private writeAll(writes: readonly EntryWrite[], removals: readonly [string, string][] = []) {
    this.assertOpen();
    const results = this.guard(() =>
      this.transact(() => {
        this.removeRefs(removals);
        return writes.flatMap((w) => writeEntry(this.statements, this.vectors, w, this.newId) ?? []);
      }),
    );
    this.hot.clear();
    return results;
  }

  /** Counts changed entries for the full-text index merge (fts-index.ts); returns `changed`. */
  private mergeIndexAfter(changed: number): number {
    this.indexMerge.changed(changed);
    return changed;
  }

  /** Deferred mode queues the vectors; otherwise they are computed before returning. */
  private async embedLater(jobs: EmbedJob[]): Promise<void> {
    if (this.embeddings === null || jobs.length === 0) return;
    if (this.deferred) {
      this.embeddings.enqueue(jobs);
      return;
    }
    try {
      await this.embeddings.embedDocuments(jobs);
    } catch (error) {
      this.warnOnce("embedding failed; entries stay keyword-only until backfill", {
        error: (error as Error).message,
      });
    }
  }

  private deleteWhere(where: string, params: unknown[]): number {
    this.assertOpen();
    const removed = this.guard(() =>
      this.transact(() => {
        this.vectors.removeWhere(where, params);
        unindexFullTextWhere(this.statements, where, params);
        return this.statements.get(`DELETE FROM memories AS m WHERE ${where}`).run(...params).changes;
      }),
    );
    this.hot.clear();
    return removed;
  }

  /** One transaction; on rollback the in-memory vector codes may be ahead of the database. */
  private transact<T>(fn: () => T): T {
    try {
      return this.db.transaction(fn).immediate();
    } catch (error) {
      this.vectors.invalidate();
      throw error;
    }
  }

  private filterOf(
    options: Omit<RecallOptions, "limit" | "mode"> & { includeSuperseded?: boolean },
    allowAll: boolean,
  ): EntryFilter {
    return {
      namespace: check.namespaceOf(options.namespace, "namespace", allowAll),
      sessionId: check.optionalText(options.sessionId, "sessionId"),
      since: check.dateOf(options.since, "since"),
      until: check.dateOf(options.until, "until"),
      categories: check.categoriesOf(options.categories, "categories"),
      includeSuperseded: check.optionalBoolean(options.includeSuperseded, "includeSuperseded") ?? false,
    };
  }

  /**
   * Another connection (a second process or SqliteMemory on the same brain.db) committed since the
   * last recall: its writes did not clear this instance's hot cache, so clear it now.
   * `PRAGMA data_version` changes only on other connections' commits and costs microseconds.
   */
  private dropHotCacheIfChangedElsewhere(): void {
    const version = this.statements.get("PRAGMA data_version").pluck().get() as number;
    if (version !== this.hotDataVersion) {
      this.hot.clear();
      this.hotDataVersion = version;
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

  /** SQLite failures surface as STORAGE; MemoryErrors pass through unchanged. */
  private guard<T>(fn: () => T): T {
    this.assertOpen();
    try {
      return fn();
    } catch (error) {
      if (isMemoryError(error)) throw error;
      throw new MemoryError("STORAGE", `storage failure: ${(error as Error).message}`, { cause: error });
    }
  }

  private async guardAsync<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      if (isMemoryError(error) || (error as Error).name === "AbortError") throw error;
      throw new MemoryError("STORAGE", `storage failure: ${(error as Error).message}`, { cause: error });
    }
  }
}
