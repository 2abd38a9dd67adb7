import type { MemoryCategory, MemorySource } from "./memory-entry.js";
import type { Metadata } from "./metadata.js";

/** Every MemoryChange, in the order the history explains them (runtime checks and schemas use it). */
export const MEMORY_CHANGES = [
  "create",
  "update",
  "supersede",
  "forget",
  "restore",
  "merge",
  "prune",
  "expire",
] as const;

/**
 * What made a version of an entry:
 * - "create": the first write of a key (or the first after it was forgotten);
 * - "update": a write that changed its content, category, metadata, importance, session, context
 *   or expiry (a write that changes none of them adds no version);
 * - "supersede": a write that marked it replaced by another entry (`supersededBy`);
 * - "forget": it was deleted (the version is a tombstone holding what was deleted);
 * - "restore": an older version was made current again;
 * - "merge": the curator merged it into another entry, or wrote it as the merge of others;
 * - "prune": hygiene deleted it past its category's retention;
 * - "expire": it was deleted after its `expiresAt` passed.
 */
export type MemoryChange = (typeof MEMORY_CHANGES)[number];

/** The changes a write may record instead of the automatic create/update/supersede. */
export type WriteChange = "merge" | "restore";

/** The changes a deletion may record (default "forget"). */
export type RemovalChange = "forget" | "merge" | "prune" | "expire";

/** One version of an entry, as `history()` lists them (newest first). */
export interface MemoryVersion {
  /** 1, 2, 3… per (namespace, key), never reused, also across a forget and a new create. */
  version: number;
  /** When this version was written (RFC 3339, UTC). */
  at: string;
  action: MemoryChange;
  /**
   * Who made the change: "library" (a direct call), "cli", "token:<name>" (a server request with
   * that token), "curator", "hygiene", or what the caller passed as `actor`; "unknown" for entries
   * written before the store kept history.
   */
  actor: string;
  /** True for the entry's state now (never for a tombstone). */
  current: boolean;
  /**
   * True for a tombstone: the version records a deletion (forget, a merge away, prune, expire)
   * and holds what was deleted. It cannot be restored; the version before it can.
   */
  deleted: boolean;
  /** The entry's id while this version was live. */
  id: string;
  key: string;
  namespace: string;
  content: string;
  category: MemoryCategory;
  sessionId?: string;
  importance?: number;
  supersededBy?: string;
  metadata?: Metadata;
  expiresAt?: string;
  context?: string;
  source?: MemorySource;
}

/** How long history is kept (`[memory]` history_max_versions / history_max_days; 0 = no limit). */
export interface HistoryRetention {
  /** At most this many versions per entry, newest kept (the current one always counts). */
  maxVersions: number;
  /** Versions older than this many days are dropped (the current state always stays). */
  maxDays: number;
}
