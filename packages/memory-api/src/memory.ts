import type { MemoryCategory, MemoryEntry } from "./memory-entry.js";
import type {
  EmbedTextsOptions,
  EntryRef,
  ExportFilter,
  ImportOptions,
  ListOptions,
  NamespaceOption,
  ProgressOptions,
  RecallOptions,
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
  forget(key: string, options?: NamespaceOption): Promise<boolean>;
  /** Deletes every listed entry in one transaction; returns how many existed. */
  forgetMany(refs: Iterable<EntryRef>): Promise<number>;
  purgeNamespace(namespace: string): Promise<number>;
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
  /** Wait until deferred embeddings are written. */
  flush(): Promise<void>;
  /** Flush (bounded), then release the database. */
  close(): Promise<void>;
}
