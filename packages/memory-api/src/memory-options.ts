import type { RemovalChange, WriteChange } from "./history.js";
import type { MemoryCategory, SearchMode } from "./memory-entry.js";
import type { Metadata, WhereFilter } from "./metadata.js";

/** Options of Memory.store: the entry's category, namespace, session, importance, metadata and expiry. */
export interface StoreOptions {
  /** Default "core". */
  category?: MemoryCategory;
  namespace?: string;
  sessionId?: string;
  /** 0..1; computed from the content and category when not given. */
  importance?: number;
  /** Words the entry is also found by, at a lower weight (MemoryEntry.context). */
  context?: string;
  /** The caller's own fields, a JSON object of at most 16 KB as JSON (MemoryEntry.metadata). */
  metadata?: Metadata;
  /**
   * When the entry expires (RFC 3339 or a Date): from then on it is never recalled, listed,
   * exported, counted or returned by get(), and purgeExpired() (hygiene) deletes it.
   */
  expiresAt?: string | Date;
  /** The same as an age from now: "30m", "12h", "7d", "2w", "1y". Not together with `expiresAt`. */
  ttl?: string;
  /** Who makes the change, recorded in its history (default the memory's actor, "library"). */
  actor?: string;
}

/** Who makes a change, recorded in the entry's history. */
export interface ActorOption {
  /** Default the memory's actor ("library"; the CLI says "cli", the server "token:<name>"). */
  actor?: string;
}

export interface ForgetOptions extends ActorOption {
  namespace?: string;
  /** Delete the entry's history too, leaving no trace of it (as purgeNamespace does). */
  eraseHistory?: boolean;
}

export interface ForgetManyOptions extends ActorOption {
  /** What the deletion is recorded as (default "forget"). */
  action?: RemovalChange;
  /** Delete the entries' history too, leaving no trace of them (as purgeNamespace does). */
  eraseHistory?: boolean;
}

/** Options of Memory.history. */
export interface HistoryOptions {
  namespace?: string;
  /** At most this many versions, newest first (default: every one kept; at most 100,000). */
  limit?: number;
}

export interface RestoreOptions extends ActorOption {
  namespace?: string;
}

/** Options of Memory.recall: how many, from where, which entries, and how to search. */
export interface RecallOptions {
  /** Default 5. */
  limit?: number;
  /** Default "default"; "*" = every namespace the caller may read. */
  namespace?: string;
  sessionId?: string;
  /** Updated at or after: an RFC 3339 timestamp, a day ("2026-11-01"), an age ("7d", "12h", "30m", "2w", "1y") or a Date. */
  since?: string | Date;
  /** Updated before; the same forms as `since`. */
  until?: string | Date;
  categories?: MemoryCategory[];
  mode?: SearchMode;
  minScore?: number;
  includeSuperseded?: boolean;
  withEmbeddings?: boolean;
  signal?: AbortSignal;
  /**
   * The moment recall measures ages from, for recency (RFC 3339 or a Date). Default: the store's
   * clock. Lets an agent replay a conversation at its own dates, or ask "as of" a day.
   */
  now?: string | Date;
  /** Only entries whose metadata matches, applied inside the search (before the limit). */
  where?: WhereFilter;
  /**
   * Give each entry the parts of its score (`MemoryEntry.explain`): keyword and vector hits,
   * fusion, coverage, recency, MMR. Computed only when asked; default false.
   */
  explain?: boolean;
}

/** Which entries Memory.list returns, and which page of them. */
export interface ListOptions {
  namespace?: string;
  category?: MemoryCategory;
  sessionId?: string;
  limit?: number;
  offset?: number;
  /** Only entries whose metadata matches. */
  where?: WhereFilter;
}

/** Which entries Memory.export and exportStream return. */
export interface ExportFilter {
  namespace?: string;
  category?: MemoryCategory;
  sessionId?: string;
  /** Updated at or after: an RFC 3339 timestamp, a day ("2026-11-01"), an age ("7d", "12h", "30m", "2w", "1y") or a Date. */
  since?: string | Date;
  /** Updated before; the same forms as `since`. */
  until?: string | Date;
  includeEmbeddings?: boolean;
  /** Only entries whose metadata matches. */
  where?: WhereFilter;
}

/** The namespace a call acts on; default "default". */
export interface NamespaceOption {
  namespace?: string;
}

/** For long calls (reindex, backfill): a callback told how far they are. */
export interface ProgressOptions {
  /** Called as the work goes on with the items done and the total. */
  onProgress?: (done: number, total: number) => void;
}

/** Options of Memory.import. */
export interface ImportOptions {
  /** An entry whose (namespace, key) already exists: "replace" it (default) or "skip" it
   *  (INSERT OR IGNORE, as snapshot hydration needs). */
  onConflict?: "replace" | "skip";
  /** Entries to delete in the same transaction, before the new ones are written (e.g. the old
   *  chunks of a file being re-indexed). */
  remove?: Iterable<EntryRef>;
  /** Who writes, recorded in the history of every entry written or removed. */
  actor?: string;
  /** Record the writes as this change instead of create/update/supersede (the curator's "merge"). */
  action?: WriteChange;
}

/** One entry to delete, as `forgetMany` takes them. */
export interface EntryRef {
  key: string;
  /** Default "default". */
  namespace?: string;
}

/** Options of Memory.embedTexts. */
export interface EmbedTextsOptions {
  purpose?: "query" | "document";
  signal?: AbortSignal;
}
