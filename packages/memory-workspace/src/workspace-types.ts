import type { MemoryCategory, SearchMode } from "@claw/memory-api";

/** The four kinds of retained fact, from the `W`, `B`, `O` and `S` prefixes of a `## Retain` bullet. */
export type FactKind = "world" | "experience" | "opinion" | "observation";

/** One typed bullet of a `## Retain` section, as indexed (category "fact"). */
export interface RetainedFact {
  /** `fact:<path>#L<line>`. */
  key: string;
  kind: FactKind;
  /** The statement as written, `@mentions` included, without the type prefix. */
  text: string;
  /** Entity names mentioned with `@`, in order of first mention, without the `@`. */
  entities: string[];
  /** The `c=` of `O(c=0.8)`; absent when not written. */
  confidence?: number;
  /** The day of the daily file, YYYY-MM-DD. */
  date: string;
  /** RFC 3339 (the file's day at 00:00 UTC). */
  timestamp: string;
  path: string;
  startLine: number;
  endLine: number;
}

/** Which files sync() added, changed, moved and removed, and what it cost. Counts are files. */
export interface SyncReport {
  /** Files indexed for the first time. */
  added: number;
  /** Files whose content changed since the last sync. */
  updated: number;
  /** Files gone from the workspace; their entries were deleted. */
  removed: number;
  /** Files renamed or moved with the same content; their entries moved with them. */
  moved: number;
  /** Files left as they were: nothing written for them. */
  unchanged: number;
  /** Files indexed after this sync (Markdown files plus session transcripts). */
  files: number;
  /** Entries written (chunks and facts). */
  entriesWritten: number;
  /** Entries deleted. */
  entriesRemoved: number;
  /** True when the index was checked against the database entry by entry (no manifest, a
   *  database that does not match it, or `sync({ full: true })`). */
  reconciled: boolean;
  /** Files that could not be read; their previous entries are kept. */
  errors: Array<{ path: string; message: string }>;
  /**
   * Memory files refused for where their links lead (the config, a dotfile, a file that is not a
   * memory file, anything outside the workspace): never read, never indexed, and whatever an
   * earlier sync indexed from them is removed.
   */
  refused: Array<{ path: string; reason: string }>;
  durationMs: number;
}

/** Options of WorkspaceIndex.sync. */
export interface SyncOptions {
  /** Compare every entry with the database instead of trusting the manifest; also indexes session
   *  transcripts below their delta thresholds. */
  full?: boolean;
}

/** Where a search hit came from. */
export type HitOrigin = "file" | "fact" | "session" | "memory";

/** One result of WorkspaceIndex.search: the entry, where it came from, its score and a snippet. */
export interface SearchHit {
  key: string;
  origin: HitOrigin;
  /** Relative POSIX path of the Markdown file (or transcript), when the entry came from one. */
  path?: string;
  startLine?: number;
  endLine?: number;
  /** At most 700 characters, around the first query term when the entry is longer. */
  snippet: string;
  score: number;
  category: MemoryCategory;
  namespace: string;
  timestamp: string;
  /** Facts only. */
  kind?: FactKind;
  /** `@mentions` in the entry. */
  entities: string[];
  /** Facts written with `c=`. */
  confidence?: number;
  /** The embedding provider and model of the memory that answered; null in keyword-only mode. */
  provider: string | null;
  model: string | null;
}

/** Options of WorkspaceIndex.search: how many hits, and filters by entity, fact kind and date. */
export interface WorkspaceSearchOptions {
  /** Default 5. */
  limit?: number;
  /** Only hits mentioning `@entity` (facts and chunks); case-insensitive, with or without `@`.
   *  Names an entity page declares as `aliases:` stand for its entity (`Pete` finds `@Peter`). */
  entity?: string;
  /** Only facts of this kind. */
  kind?: FactKind;
  /** "30d", "12h", "2w", a date (YYYY-MM-DD) or a timestamp; compared with the entry's time
   *  (a daily file's date, a Markdown file's modification time). */
  since?: string | Date;
  until?: string | Date;
  categories?: MemoryCategory[];
  mode?: SearchMode;
  minScore?: number;
  /** Default: the index's namespace. */
  namespace?: string;
  signal?: AbortSignal;
}

/** Which lines WorkspaceIndex.read returns. */
export interface ReadOptions {
  /** First line to return, 1-based. Default 1. */
  from?: number;
  /** How many lines; default all the rest. */
  lines?: number;
}

/** The text WorkspaceIndex.read returned, and where it is in the file. */
export interface ReadResult {
  /** The relative POSIX path that was read. */
  path: string;
  text: string;
  /** First line returned (1-based). */
  from: number;
  /** Last line returned; from - 1 when nothing was (a missing file or a range past its end). */
  to: number;
}

/** What the index knows about one `@entity`: its facts, opinions and page. */
export interface EntitySummary {
  /** The name asked for, without `@`; the entity's canonical name (its page's) when it is an alias. */
  name: string;
  /** World, experience and observation facts mentioning the entity, newest first. */
  facts: RetainedFact[];
  /** Opinion facts mentioning the entity, newest first. */
  opinions: RetainedFact[];
}

/** Options of WorkspaceIndex.reflect. */
export interface ReflectOptions {
  /** Only rewrite the pages of entities with facts since then ("7d", a date, a timestamp).
   *  Opinion confidence is always replayed over all evidence, so it does not depend on it. */
  since?: string | Date;
}

/** What one reflect run read and wrote. */
export interface ReflectReport {
  /** Facts read from the index. */
  facts: number;
  /** Entities mentioned by those facts. */
  entities: number;
  /** Opinions tracked in bank/opinions.md. */
  opinions: number;
  /** Pages whose content changed, relative POSIX paths. */
  written: string[];
  /** Pages considered and already up to date. */
  unchanged: string[];
  /** The sync that indexed the written pages. */
  sync: SyncReport;
  durationMs: number;
}

/** Options of WorkspaceIndex.watch: when syncs run and who is told about them. */
export interface WatchOptions {
  /** Quiet time after the last change before a sync. Default: the index's debounceMs (1500). */
  debounceMs?: number;
  /** A sync runs at the latest this long after the first change of a burst. Default 10 × debounce. */
  maxWaitMs?: number;
  /** Poll every N ms instead of using file system events (network drives); true = 5000. */
  poll?: boolean | number;
  /** Told the report of each sync the watcher ran. */
  onSync?: (report: SyncReport) => void;
  /** Told when a sync fails; the watcher goes on. */
  onError?: (error: unknown) => void;
}

/** A running watch: syncs the index as the files change until closed. */
export interface Watcher {
  /** Resolves with the report of the next sync this watcher runs. */
  nextSync(): Promise<SyncReport>;
  /** How many syncs this watcher has run. */
  readonly syncs: number;
  /** Stops watching; waits for a sync in progress. */
  close(): Promise<void>;
}

/**
 * A workspace's Markdown files indexed into a memory: sync and watch them, search them
 * (memory_search), read them (memory_get), and reflect the Retain facts into entity pages.
 * Made by createWorkspaceIndex.
 */
export interface WorkspaceIndex {
  readonly workspaceDir: string;
  readonly namespace: string;
  /** Indexes the workspace's Markdown files (and transcripts) incrementally. Calls made while a
   *  sync runs share one follow-up sync, so each sees the files as they were when it was called. */
  sync(options?: SyncOptions): Promise<SyncReport>;
  /** Syncs whenever the files change (debounced), until the watcher is closed. */
  watch(options?: WatchOptions): Watcher;
  /** Hybrid recall over file chunks, facts and stored entries; never waits for a sync. */
  search(query: string, options?: WorkspaceSearchOptions): Promise<SearchHit[]>;
  /** memory_get: a memory file's text, refused outside MEMORY.md, memory/, bank/ and extraPaths. */
  read(path: string, options?: ReadOptions): Promise<ReadResult>;
  /** The memory files refused for where their links lead, as the next sync would report them. */
  refused(): Promise<Array<{ path: string; reason: string }>>;
  /** The facts about `name`, or about the entity whose page declares it as an alias. */
  entitySummary(name: string): Promise<EntitySummary>;
  /** Writes bank/entities/<Name>.md and bank/opinions.md from the retained facts; facts naming an
   *  alias go to the page declaring it. */
  reflect(options?: ReflectOptions): Promise<ReflectReport>;
  /** Stops the watchers and waits for a sync in progress; the memory stays open. */
  close(): Promise<void>;
}
