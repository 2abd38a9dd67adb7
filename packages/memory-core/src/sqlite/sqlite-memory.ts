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
import { checkSearchMode, recallRequestOf } from "../facade/read-requests.js";
import { importInputOf, refsOf } from "../facade/write-requests.js";
import * as check from "../validate-input.js";
import { type CachedRecall, createCachedRecall } from "./cached-recall.js";
import type { EmbeddingPipeline } from "./embedding-pipeline.js";
import { createEntryEmbedder, type EntryEmbedder } from "./entry-embedder.js";
import { toEntryWrite } from "./entry-input.js";
import { createEntryReader, type EntryReader } from "./entry-reader.js";
import { createEntryWriter, type EntryWriter } from "./entry-writer.js";
import { createIndexMerge } from "./fts-index.js";
import { readStatus } from "./memory-status.js";
import { openStore } from "./open-store.js";
import { rebuildFullText } from "./rebuild-full-text.js";
import type { StatementCache } from "./statement-cache.js";
import { createStorageGuard } from "./storage-guard.js";
import type { VectorIndex } from "./vector-index.js";

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

/** The embedded default: one SQLite file with FTS5, sqlite-vec and the recall pipeline. */
export class SqliteMemory implements Memory {
  readonly name = "sqlite";
  private readonly db: Database;
  private readonly statements: StatementCache;
  private readonly vectors: VectorIndex;
  private readonly embeddings: EmbeddingPipeline | null;
  /** Recall through the hot cache of recent results (cached-recall.ts), cleared by every write. */
  private readonly cachedRecall: CachedRecall;
  /** Validated reads (entry-reader.ts). */
  private readonly reader: EntryReader;
  /** Writes and deletes (entry-writer.ts). */
  private readonly writer: EntryWriter;
  private readonly settings: MemorySettings;
  private readonly logger: Logger;
  private readonly now: () => Date;
  private readonly newId: () => string;
  private readonly warned = new Set<string>();
  private readonly warnings: string[] = [];
  /** Embeds written entries and backfills missing vectors (entry-embedder.ts). */
  private readonly embedder: EntryEmbedder;
  private closing: Promise<void> | null = null;
  /** Set once the beforeClose hooks have run: from then on every call is UNAVAILABLE. */
  private released = false;
  /** Runs a storage call: UNAVAILABLE once closed, SQLite failures as STORAGE (storage-guard.ts). */
  private readonly guard = createStorageGuard(() => this.assertOpen());

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
      onVectorsWritten: () => this.cachedRecall.clear(),
    });
    this.db = parts.db;
    this.statements = parts.statements;
    this.vectors = parts.vectors;
    this.embeddings = parts.embeddings;
    this.warnings.push(...parts.warnings);
    this.cachedRecall = createCachedRecall({
      statements: this.statements,
      vectors: this.vectors,
      embeddings: this.embeddings,
      settings: this.settings,
      logger: this.logger,
      now: this.now,
      warnOnce: (reason, data) => this.warnOnce(reason, data),
    });
    this.reader = createEntryReader(this.statements, this.settings, this.guard);
    this.writer = createEntryWriter({
      db: this.db,
      statements: this.statements,
      vectors: this.vectors,
      indexMerge: createIndexMerge(this.statements, this.logger),
      newId: this.newId,
      assertOpen: () => this.assertOpen(),
      guard: this.guard,
      onWrite: () => this.cachedRecall.clear(),
    });
    if (options.embeddingUnavailableReason) this.warnings.push(options.embeddingUnavailableReason);
    this.embedder = createEntryEmbedder({
      db: this.db,
      statements: this.statements,
      pipeline: this.embeddings,
      settings: this.settings,
      logger: this.logger,
      addWarning: (warning) => this.warnings.push(warning),
      warnOnce: (reason, data) => this.warnOnce(reason, data),
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

  async store(key: string, content: string, options: StoreOptions = {}): Promise<MemoryEntry> {
    const write = this.guard(() =>
      toEntryWrite({ key, content, ...options }, "", this.settings, this.now(), this.newId, false),
    );
    const [result] = this.writer.writeAll([write]);
    this.writer.mergeIndexAfter(1);
    await this.embedder.embedLater(result?.job ? [result.job] : []);
    return (result as { entry: MemoryEntry }).entry;
  }

  async get(key: string, options: NamespaceOption = {}): Promise<MemoryEntry | null> {
    return this.reader.get(key, options);
  }

  async recall(query: string, options: RecallOptions = {}): Promise<MemoryEntry[]> {
    this.assertOpen();
    options.signal?.throwIfAborted();
    const request = this.guard(() => recallRequestOf(query, options, this.settings));
    checkSearchMode(request.mode);
    return this.cachedRecall.recall(request);
  }

  async list(options: ListOptions = {}): Promise<MemoryEntry[]> {
    return this.reader.list(options);
  }

  async forget(key: string, options: NamespaceOption = {}): Promise<boolean> {
    const namespace = this.guard(() => check.namespaceOf(options.namespace, "namespace", false));
    check.requireText(key, "key", 4096);
    const removed = this.writer.deleteWhere("m.namespace = ? AND m.key = ?", [namespace, key]);
    return this.writer.mergeIndexAfter(removed) > 0;
  }

  async forgetMany(refs: Iterable<EntryRef>): Promise<number> {
    this.assertOpen();
    const pairs = refsOf(refs, "refs");
    if (pairs.length === 0) return 0;
    return this.writer.mergeIndexAfter(this.writer.deleteRefs(pairs));
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
    return this.writer.mergeIndexAfter(this.writer.deleteWhere("m.namespace = ?", [namespace]));
  }

  async purgeSession(sessionId: string): Promise<number> {
    check.requireText(sessionId, "sessionId", 1024);
    return this.writer.mergeIndexAfter(this.writer.deleteWhere("m.session_id = ?", [sessionId]));
  }

  async count(options: { namespace?: string; category?: MemoryCategory } = {}): Promise<number> {
    return this.reader.count(options);
  }

  async export(filter: ExportFilter = {}): Promise<MemoryEntry[]> {
    return this.reader.export(filter);
  }

  exportStream(filter: ExportFilter = {}): AsyncIterable<MemoryEntry> {
    return this.reader.exportStream(filter);
  }

  async import(
    entries: Iterable<Partial<MemoryEntry>> | AsyncIterable<Partial<MemoryEntry>>,
    options: ImportOptions = {},
  ): Promise<number> {
    this.assertOpen();
    // Everything is validated before anything is written, so bad input changes nothing.
    const { writes, removals } = await importInputOf(entries, options, {
      settings: this.settings,
      now: this.now,
      newId: this.newId,
      dimensions: () => this.embeddings?.provider.dimensions,
    });
    const results = this.writer.writeAll(writes, removals);
    this.writer.mergeIndexAfter(results.length + removals.length);
    await this.embedder.embedLater(results.flatMap((r) => (r.job ? [r.job] : [])));
    return results.length;
  }

  async topCoreMemories(limit: number, options: NamespaceOption = {}): Promise<MemoryEntry[]> {
    return this.reader.topCoreMemories(limit, options);
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
    this.cachedRecall.clear();
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
    return this.embedder.backfill(batchSize, options);
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
        this.embedder.abort();
        // A backfill (one running in the background since start-up, say) stops between batches.
        await Promise.race([
          this.embedder.settled(),
          new Promise((resolve) => setTimeout(resolve, this.settings.closeTimeoutMs).unref()),
        ]);
        await this.embeddings?.close(this.settings.closeTimeoutMs);
        this.statements.clear();
        this.db.close();
        if (this.options.closeProvider) await this.options.embeddings?.close?.();
      }
    })();
    return this.closing;
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
