import type { BackupOptions, BackupReport } from "./backup.js";
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

/** What Memory.status reports. */
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
  /**
   * Set when the store's file is known to be damaged (a CORRUPT failure was seen, now or by an
   * earlier process): what was found and the command to run. Writes are refused meanwhile.
   */
  corrupt?: string;
}

/**
 * A long-term memory: entries stored under a key in a namespace, found again by hybrid recall
 * (keywords and vectors). createMemory returns one; every backend (SQLite, PostgreSQL, none)
 * behaves the same behind it. Failures are MemoryErrors.
 *
 * @example
 * ```ts
 * import { createMemory } from "@claw/memory-core";
 *
 * const memory = await createMemory({ workspaceDir: "./my-agent" });
 * await memory.store("drink", "The user drinks green tea, no sugar", { importance: 0.8 });
 * const [best] = await memory.recall("what does the user drink?", { limit: 3 });
 * console.log(best?.key, best?.score);
 * await memory.close();
 * ```
 */
export interface Memory {
  /** "sqlite" | "none" | ... */
  readonly name: string;
  /**
   * Upsert by (namespace, key).
   *
   * @example
   * ```ts
   * await memory.store("editor", "The user edits in Helix", { category: "core", importance: 0.7 });
   * await memory.store("standup", "Standup moved to 10:00", { category: "daily", ttl: "7d" });
   * ```
   */
  store(key: string, content: string, options?: StoreOptions): Promise<MemoryEntry>;
  /** The entry stored under `key`, or null when there is none (or it has expired). */
  get(key: string, options?: NamespaceOption): Promise<MemoryEntry | null>;
  /**
   * Best first; "" or "*" = most recent.
   *
   * @example
   * ```ts
   * const hits = await memory.recall("which editor does the user use?", { limit: 5, since: "30d" });
   * for (const hit of hits) console.log(hit.score?.toFixed(3), hit.key, hit.content);
   * ```
   */
  recall(query: string, options?: RecallOptions): Promise<MemoryEntry[]>;
  /** Entries most recently updated first, filtered and paged by `options`. */
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
  /** How many entries there are (not expired), in a namespace and category when given. */
  count(options?: { namespace?: string; category?: MemoryCategory }): Promise<number>;
  /** Every entry the filter matches, for backups and migrations; see exportStream for large stores. */
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
  /** The most important core entries, for a prompt's stable memory block. */
  topCoreMemories(limit: number, options?: NamespaceOption): Promise<MemoryEntry[]>;
  /** True when the store answers. */
  healthCheck(): Promise<boolean>;
  /**
   * What the store holds and how it runs: counts, the embedding provider, vector and full-text search,
   * warnings.
   */
  status(): Promise<MemoryStatus>;
  /**
   * Rebuilds the keyword index and, with a provider, drops every vector and embeds all entries again
   * (after a model change); returns how many entries.
   */
  reindex(options?: ProgressOptions): Promise<number>;
  /** Embeds the entries that have no vector yet, `batchSize` at a time; returns how many. */
  backfillEmbeddings(batchSize?: number, options?: ProgressOptions): Promise<number>;
  /**
   * Vectors for `texts` from this memory's provider, through its cache and retries; null in
   * keyword-only mode. Optional: lifecycle code compares memories with it when present.
   */
  embed?(texts: readonly string[], options?: EmbedTextsOptions): Promise<Float32Array[] | null>;
  /**
   * Writes a consistent copy of the whole store to `path` while it stays in use (temp file, checked,
   * then renamed onto `path`). SQLite: the database file, through SQLite's online backup, with its
   * history and vectors, integrity-checked; PostgreSQL: NDJSON, the entries with their vectors as
   * `export` writes them (one a line, which `import` reads), then every version of every key as a
   * line `{"history": MemoryVersion}` (what replaceHistory() puts back). UNAVAILABLE where the store cannot take one
   * (backend "none"); INVALID_INPUT naming `path` for an empty path or the live database itself.
   */
  backup(path: string, options?: BackupOptions): Promise<BackupReport>;
  /**
   * Puts back the history a PostgreSQL backup carried (its `{"history": …}` lines), after its
   * entries were imported: for each (namespace, key) given, the store's kept versions and
   * tombstones of that key are replaced by the non-current ones given, and the live entry takes the
   * version number, action, actor and time of the one marked `current`. Give every version of a key
   * in one call (a later call replaces the key's history again). A key given without a current
   * version that is live in the store keeps its own history; a current version whose entry is not
   * in the store is kept as an ordinary version, never made current. Every version is checked
   * first: INVALID_INPUT naming the field (`history[3].version`), and nothing changes; one call is
   * one transaction (after the vectors this memory has queued are written). Returns how many
   * versions were put back. UNAVAILABLE on a store that cannot (SQLite keeps the history in its
   * backup file); optional: absent on memories without a store.
   */
  replaceHistory?(history: Iterable<MemoryVersion>): Promise<number>;
  /**
   * Wait until deferred embeddings are written and the store's background work is done (the log
   * checkpoint after a bulk import), so that what follows runs on a settled store.
   */
  flush(): Promise<void>;
  /** Flush (bounded), then release the database. */
  close(): Promise<void>;
}
