import type { MemoryVersion } from "./history.js";
import type { MemoryCategory, MemoryEntry } from "./memory-entry.js";
import type {
  ActorOption,
  EmbedTextsOptions,
  EntryRef,
  ExportFilter,
  ForgetManyOptions,
  ForgetOptions,
  HistoryOptions,
  ImportOptions,
  ListOptions,
  NamespaceOption,
  ProgressOptions,
  RecallOptions,
  RestoreOptions,
  StoreOptions,
} from "./memory-options.js";

export interface MemoryStatus {
  backend: string;
  path?: string;
  entries: number;
  namespaces: number;
  pendingEmbeddings: number;
  missingEmbeddings: number;
  embedding: { provider: string; model: string; dimensions: number } | null;
  embeddingUnavailableReason?: string;
  /** How vectors are searched: an index extension (sqlite-vec, pgvector), in JavaScript, or not at all. */
  vector: "sqlite-vec" | "pgvector" | "js" | "none";
  fts: boolean;
  /** What runs full-text search when `fts` is on, e.g. "sqlite fts5" or "postgres tsvector (english)". */
  ftsEngine?: string;
  schemaVersion: number;
  sizeBytes?: number;
  /** Why this store runs degraded (e.g. NoneMemory fallback, sqlite-vec missing). */
  warnings?: string[];
}

export interface Memory {
  /** "sqlite" | "none" | ... */
  readonly name: string;
  /** Upsert by (namespace, key). */
  store(key: string, content: string, options?: StoreOptions): Promise<MemoryEntry>;
  get(key: string, options?: NamespaceOption): Promise<MemoryEntry | null>;
  /** Best first; "" or "*" = most recent. */
  recall(query: string, options?: RecallOptions): Promise<MemoryEntry[]>;
  list(options?: ListOptions): Promise<MemoryEntry[]>;
  /** Deletes the entry, leaving a "forget" version in its history; false when it did not exist. */
  forget(key: string, options?: ForgetOptions): Promise<boolean>;
  /** Deletes every listed entry in one transaction; returns how many existed. */
  forgetMany(refs: Iterable<EntryRef>, options?: ForgetManyOptions): Promise<number>;
  /**
   * The versions of one entry, newest first: every change since it was first stored, also after
   * it was forgotten (a "forget" tombstone), until a purge or the history retention drops them.
   * Empty when the key never existed.
   */
  history(key: string, options?: HistoryOptions): Promise<MemoryVersion[]>;
  /**
   * Makes `version` of the entry current again, as a new "restore" version (also after a forget;
   * an `expiresAt` that has passed is not restored). NOT_FOUND when that version is not kept;
   * INVALID_INPUT when it is a tombstone.
   */
  restore(key: string, version: number, options?: RestoreOptions): Promise<MemoryEntry>;
  /** Deletes every entry whose `expiresAt` has passed, each leaving an "expire" version; returns how many. */
  purgeExpired(options?: ActorOption): Promise<number>;
  /** Deletes the namespace's entries and their history (privacy: nothing of them stays). */
  purgeNamespace(namespace: string): Promise<number>;
  /** Deletes the session's entries and their history. */
  purgeSession(sessionId: string): Promise<number>;
  count(options?: { namespace?: string; category?: MemoryCategory }): Promise<number>;
  export(filter?: ExportFilter): Promise<MemoryEntry[]>;
  /**
   * The entries export() would return, read a page at a time (constant memory however many match),
   * in the order the store first wrote them (within one import, in any order). Bad filters throw
   * INVALID_INPUT at the call. Each page is read on its own, so writes made meanwhile may show: an
   * entry changed during the stream comes in its old or its new form, never twice.
   */
  exportStream(filter?: ExportFilter): AsyncIterable<MemoryEntry>;
  /** Validates every entry, then writes them all in one transaction; returns how many were written. */
  import(
    entries: Iterable<Partial<MemoryEntry>> | AsyncIterable<Partial<MemoryEntry>>,
    options?: ImportOptions,
  ): Promise<number>;
  topCoreMemories(limit: number, options?: NamespaceOption): Promise<MemoryEntry[]>;
  healthCheck(): Promise<boolean>;
  status(): Promise<MemoryStatus>;
  reindex(options?: ProgressOptions): Promise<number>;
  backfillEmbeddings(batchSize?: number, options?: ProgressOptions): Promise<number>;
  /**
   * Vectors for `texts` from this memory's provider, through its cache and retries; null in
   * keyword-only mode. Optional: lifecycle code compares memories with it when present.
   */
  embed?(texts: readonly string[], options?: EmbedTextsOptions): Promise<Float32Array[] | null>;
  /**
   * Wait until deferred embeddings are written and the store's background work is done (the log
   * checkpoint after a bulk import), so that what follows runs on a settled store.
   */
  flush(): Promise<void>;
  /** Flush (bounded), then release the database. */
  close(): Promise<void>;
}
