import type { MemoryCategory, SearchMode } from "./memory-entry.js";
import type { Metadata, WhereFilter } from "./metadata.js";

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
}

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
}

export interface ListOptions {
  namespace?: string;
  category?: MemoryCategory;
  sessionId?: string;
  limit?: number;
  offset?: number;
  /** Only entries whose metadata matches. */
  where?: WhereFilter;
}

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

export interface NamespaceOption {
  namespace?: string;
}

export interface ProgressOptions {
  onProgress?: (done: number, total: number) => void;
}

export interface ImportOptions {
  /** An entry whose (namespace, key) already exists: "replace" it (default) or "skip" it
   *  (INSERT OR IGNORE, as snapshot hydration needs). */
  onConflict?: "replace" | "skip";
  /** Entries to delete in the same transaction, before the new ones are written (e.g. the old
   *  chunks of a file being re-indexed). */
  remove?: Iterable<EntryRef>;
}

/** One entry to delete, as `forgetMany` takes them. */
export interface EntryRef {
  key: string;
  /** Default "default". */
  namespace?: string;
}

export interface EmbedTextsOptions {
  purpose?: "query" | "document";
  signal?: AbortSignal;
}
