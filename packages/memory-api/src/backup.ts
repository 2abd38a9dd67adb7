// Memory.backup(): a consistent copy of the whole store in one file, taken while it stays in use.

/**
 * How far a backup has come: SQLite counts database pages copied, PostgreSQL lines written (the
 * entries, then the versions of their history).
 */
export interface BackupProgress {
  done: number;
  total: number;
}

/** Options of Memory.backup. */
export interface BackupOptions {
  /** Called as the copy goes on: `done` never decreases, and the last call has `done === total`. */
  onProgress?: (progress: BackupProgress) => void;
}

/** What a backup wrote. */
export interface BackupReport {
  /** The backup file, absolute. */
  path: string;
  /** Entries in the copy. */
  entries: number;
  /**
   * Versions of the entries' history written as lines of their own (PostgreSQL's NDJSON); absent
   * for a SQLite copy, whose database file holds the history as it is.
   */
  versions?: number;
  /** The file's size. */
  bytes: number;
}

/** One backup, validated by the façade (MemoryBackend.backup). */
export interface BackupRequest {
  /** Absolute; not the live database or one of its companion files. */
  path: string;
  /**
   * Entries expired at this moment (RFC 3339 UTC) are left out where the copy is made of entries
   * (PostgreSQL's NDJSON, as export): their history is written, the expired state as a version
   * that is no longer current. A SQLite copy holds the file as it is.
   */
  aliveAt: string;
  /** Called as the copy goes on, as BackupOptions.onProgress. */
  onProgress?: (progress: BackupProgress) => void;
}
