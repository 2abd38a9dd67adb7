// The narrow interface a storage engine implements. memory-core's façade (createBackendMemory)
// turns any MemoryBackend into a Memory: it validates input and applies defaults, runs the recall
// engine over the backend's searches, keeps the hot cache, defers embedding, backfills, reindexes
// and closes, once for every engine. A backend only stores, reads, searches and reports.
import type { BackupReport, BackupRequest } from "./backup.js";
import type { EmbeddingProvider } from "./embedding-provider.js";
import type { HistoryRetention, MemoryVersion, RemovalChange, WriteChange } from "./history.js";
import type { MemoryStatus } from "./memory.js";
import type { MemoryCategory, MemoryEntry, SearchMode } from "./memory-entry.js";
import type { MemoryError } from "./memory-error.js";
import type { WhereCondition } from "./metadata.js";
import type { RecallExplanation } from "./recall-explanation.js";

/** One validated entry ready to be written (store() and import() both produce these). */
export interface EntryWrite {
  key: string;
  content: string;
  category: MemoryCategory;
  namespace: string;
  sessionId: string | null;
  importance: number;
  supersededBy: string | null;
  /** Kept on update; used on insert. */
  id: string;
  /** True when the id came from the caller (import), so another entry may already have it; a
   *  fresh id (store()) cannot collide and is not looked up. */
  idFromCaller: boolean;
  createdAt: string;
  updatedAt: string;
  /** Only a vector of the store's current dimensions is given here. */
  embedding: Float32Array | null;
  source: { path: string; startLine: number; endLine: number } | null;
  /** MemoryEntry.context: more words the entry is found by. */
  context: string | null;
  /** MemoryEntry.metadata as validated JSON text (null: none). */
  metadata: string | null;
  /** RFC 3339 UTC (null: never expires). */
  expiresAt: string | null;
  /** Recorded instead of the automatic create/update/supersede (null: automatic). */
  change: WriteChange | null;
  /** Who writes, for the history. */
  actor: string;
  /** When false (store()), an update keeps the row's created_at; import() carries its own. */
  keepCreatedAt: boolean;
  /** An existing (namespace, key) is left as it is (import's onConflict "skip"). */
  skipExisting?: boolean;
}

/** A (namespace, key) pair, validated. */
export type EntryRefPair = readonly [namespace: string, key: string];

/** How a deletion is recorded in each deleted entry's history (its tombstone). */
export interface RemovalNote {
  action: RemovalChange;
  actor: string;
  /** RFC 3339 UTC. */
  at: string;
  /** Delete the entries' history with them instead, leaving no tombstone (privacy). */
  eraseHistory?: boolean;
}

/** One entry waiting for its vector. `hash` is the content hash the vector must belong to. */
export interface EmbedJob {
  rid: number;
  namespace: string;
  hash: string;
  content: string;
}

/** An entry as written, and its embedding job when it still needs a vector. */
export interface WrittenEntry {
  entry: MemoryEntry;
  job: EmbedJob | null;
}

/** What an import's write returns: how many entries it wrote and which still need a vector. */
export interface BulkWriteResult {
  written: number;
  jobs: EmbedJob[];
}

/**
 * An import's writes, each made (validated) as the iteration reaches it, so that none outlives its
 * own write. The iteration throws INVALID_INPUT at the first bad entry: the backend's transaction
 * then rolls back, and nothing is written. Iterate it once.
 */
export interface BulkWrites extends Iterable<EntryWrite> {
  /** How many writes the iteration yields. */
  readonly count: number;
  /** The length of their content in all, in UTF-16 units (for sizing the write). */
  readonly contentLength: number;
}

/** The filters recall, list, export and count share, already validated and normalised. */
export interface EntryFilter {
  /** undefined or "*" = every namespace. */
  namespace?: string;
  sessionId?: string;
  /** Inclusive, RFC 3339 UTC. */
  since?: string;
  /** Exclusive, RFC 3339 UTC. */
  until?: string;
  categories?: readonly MemoryCategory[];
  includeSuperseded?: boolean;
  /** Conditions on MemoryEntry.metadata, all of which must hold (validated `where`). */
  where?: readonly WhereCondition[];
  /** Only entries that have not expired at this moment (RFC 3339 UTC). */
  aliveAt?: string;
}

/** One recall, validated. */
export interface RecallRequest {
  query: string;
  limit: number;
  mode: SearchMode;
  filter: EntryFilter;
  minScore?: number;
  withEmbeddings: boolean;
  signal?: AbortSignal;
  /** Ages are measured from here; default the store's clock. */
  now?: Date;
  /** Explain each result's score (RecallOptions.explain). */
  explain?: boolean;
}

/** The fields of a stored entry the recall pipeline reads; `rid` identifies it within its store. */
export interface RecallRow {
  rid: number;
  key: string;
  content: string;
  category: string;
  /** RFC 3339. */
  updated_at: string;
  /** RFC 3339: when the entry was written. When given, a query naming a date finds its terms in this date too. */
  created_at?: string;
}

/** A row found by one recall stage, with that stage's score. */
export interface ScoredRow<R extends RecallRow> {
  row: R;
  /** Higher is better: a BM25-like magnitude for keyword hits, the share of keywords for LIKE. */
  score: number;
  /** The part of `score` lent by session neighbours (keyword hits; absent: none). */
  lent?: number;
}

/** A recalled row; `score` is absent for the most recent entries (`""` and `"*"` queries). */
export interface RecalledRow<R extends RecallRow> {
  row: R;
  score?: number;
  /** With RecallRequest.explain: the parts of `score`. */
  explain?: RecallExplanation;
}

/** A row found by the vector search, with its similarity to the query. */
export interface VectorHit {
  rid: number;
  /** Cosine similarity. */
  similarity: number;
}

/**
 * The searches one store runs for one recall, already bound to its filter (namespace, session,
 * dates, categories, superseded) and to whether rows carry their vectors.
 */
export interface RecallSource<R extends RecallRow> {
  /** Newest first (`""` and `"*"` queries). */
  mostRecent(limit: number): Promise<R[]> | R[];
  /** Ranked keyword hits, best first, session neighbours included. */
  keyword(query: string, depth: number): Promise<ScoredRow<R>[]> | ScoredRow<R>[];
  /** The query's vector; null when the store has no provider (keyword-only). */
  embedQuery: ((query: string, signal?: AbortSignal) => Promise<Float32Array>) | null;
  /** Nearest stored vectors, best first. */
  vector(queryVector: Float32Array, depth: number): Promise<VectorHit[]> | VectorHit[];
  /** Rows by rid (vector hits the keyword stage did not return). */
  rows(rids: readonly number[]): Promise<R[]> | R[];
  /** Substring fallback when ranked search found nothing. */
  like(query: string, limit: number): Promise<ScoredRow<R>[]> | ScoredRow<R>[];
  /**
   * True when searches run side by side (PostgreSQL's pool of connections): a hybrid recall then
   * starts its vector stage beside the keyword stage instead of after it, and drops its result
   * when a strong keyword hit makes it unnecessary. Absent: one after the other.
   */
  readonly concurrent?: boolean;
}

/**
 * How a backend computes and stores vectors: the provider behind core's batching, retries and
 * cache, with rows claimed (PostgreSQL: leases shared by servers) and written under the
 * content-hash guard.
 */
export interface BackendEmbedder {
  readonly provider: EmbeddingProvider;
  /** Jobs queued or being embedded by this process. */
  readonly pending: number;
  /** Why the last deferred batch failed, until one succeeds. */
  readonly lastError: string | undefined;
  /** Queues rows for background embedding. */
  enqueue(jobs: readonly EmbedJob[]): void;
  /** Embeds and writes now; returns how many rows received a vector. */
  embedNow(jobs: readonly EmbedJob[]): Promise<number>;
  /** The vector of one query text (not cached). */
  embedQuery(text: string, signal?: AbortSignal): Promise<Float32Array>;
  /** Vectors for `texts` in order (documents through the cache). */
  embedTexts(
    texts: readonly string[],
    purpose: "query" | "document",
    signal?: AbortSignal,
  ): Promise<Float32Array[]>;
  /** Embeds every entry without a vector, `batchSize` at a time; returns the vectors written. */
  backfill(batchSize: number, onProgress?: (done: number, total: number) => void): Promise<number>;
  /** Resolves when no deferred job is queued or running. */
  flush(): Promise<void>;
  /** Stops a running backfill between batches (the memory is closing) and waits up to `timeoutMs` for it. */
  stopBackfill(timeoutMs: number): Promise<void>;
  /** Stops taking jobs and waits up to `timeoutMs` for running ones; true when everything finished. */
  close(timeoutMs: number): Promise<boolean>;
}

/**
 * A storage engine. Every argument is already validated by the façade; database failures surface
 * as MemoryError STORAGE, MemoryErrors and aborts pass through. Row ids (`rid`) identify rows
 * within one store and ascend in write order.
 */
export interface MemoryBackend<R extends RecallRow = RecallRow> {
  /** "sqlite", "postgres", ...: becomes Memory.name and MemoryStatus.backend. */
  readonly name: string;
  /** null = keyword-only. */
  readonly embedder: BackendEmbedder | null;
  /** Degradations found when the store opened (sqlite-vec missing, ...), reported by status(). */
  readonly warnings: readonly string[];
  /**
   * Refuses text this engine cannot hold (PostgreSQL: U+0000) as INVALID_INPUT naming `field`;
   * absent = any string.
   */
  checkText?(value: string | null | undefined, field: string): void;

  /**
   * Removes `removals` (recorded as `removedAs`), then upserts `writes` in order, in one
   * transaction. Every write that changes an entry, and every removal, adds a version to its
   * history in the same transaction (see MemoryChange).
   */
  write(
    writes: readonly EntryWrite[],
    removals: readonly EntryRefPair[],
    removedAs: RemovalNote,
  ): Promise<WrittenEntry[]>;
  /**
   * write() for an import, which returns a count: the same transaction and history, but only the
   * embedding jobs come back, and the writes are made as they are written (BulkWrites). Optional:
   * without it, import() validates every entry first and calls write().
   */
  writeBulk?(
    writes: BulkWrites,
    removals: readonly EntryRefPair[],
    removedAs: RemovalNote,
  ): Promise<BulkWriteResult>;
  /**
   * Resolves when the engine's own background work is done (SQLite: the log checkpoint a bulk write
   * left to a worker thread). Optional; Memory.flush() waits for it.
   */
  settle?(): Promise<void>;
  /** Deletes the pairs in one transaction, each leaving a tombstone; returns how many existed. */
  deleteRefs(refs: readonly EntryRefPair[], note: RemovalNote): Promise<number>;
  /** Deletes the entries whose expiry is at or before `note.at`, each leaving a tombstone. */
  deleteExpired(note: RemovalNote): Promise<number>;
  /** Deletes the namespace's entries and all of its history. */
  deleteNamespace(namespace: string): Promise<number>;
  /** Deletes the session's entries and their history. */
  deleteSession(sessionId: string): Promise<number>;
  /** The entry's versions, newest first, at most `limit`: the live row (when it exists) and the kept ones. */
  history(namespace: string, key: string, limit: number): Promise<MemoryVersion[]>;
  /** Drops kept versions past the retention (the live state always stays); returns how many. */
  pruneHistory(retention: HistoryRetention, now: string): Promise<number>;
  /**
   * Memory.replaceHistory(), in one transaction: for each (namespace, key) of `versions` (validated:
   * at most one current version per key, the highest; no version number twice), the key's kept
   * versions are replaced by the non-current ones, and its live row takes the current one's
   * version, action, actor and time. A key without a current version whose row is live is left as
   * it is; a current version of a key with no live row is kept as an ordinary version. Returns how
   * many versions were written. Optional: without it, Memory.replaceHistory() is UNAVAILABLE.
   */
  replaceHistory?(versions: readonly MemoryVersion[]): Promise<number>;

  /** The entry unless it is missing or expired at `aliveAt`. */
  get(namespace: string, key: string, aliveAt: string): Promise<MemoryEntry | null>;
  /** A page of the entries the filter matches, most recently updated first. */
  list(filter: EntryFilter, limit: number, offset: number): Promise<MemoryEntry[]>;
  /** Entries not expired at `aliveAt`. */
  count(
    namespace: string | undefined,
    category: MemoryCategory | undefined,
    aliveAt: string,
  ): Promise<number>;
  /** Core entries of one namespace not expired at `aliveAt`, most important first. */
  topCore(namespace: string, limit: number, aliveAt: string): Promise<MemoryEntry[]>;
  /** Every entry the filter matches (by namespace, then creation), with their vectors when asked. */
  exportAll(filter: EntryFilter, withEmbeddings: boolean): Promise<MemoryEntry[]>;
  /** Up to `limit` entries with a row id above `afterRid`, ascending. */
  exportPage(
    filter: EntryFilter,
    withEmbeddings: boolean,
    afterRid: number,
    limit: number,
  ): Promise<Array<{ rid: number; entry: MemoryEntry }>>;

  /** The searches of one recall (`embedQuery` is the embedder's, or null). */
  recallSource(request: RecallRequest): RecallSource<R>;
  /** The recalled rows as full entries with their scores, in the same order. */
  recalledEntries(recalled: readonly RecalledRow<R>[], withEmbeddings: boolean): Promise<MemoryEntry[]>;

  /**
   * A value that changes whenever the stored data may have changed by any writer (another
   * connection or server included): cached recall results are served only while it holds. Every
   * write method moves it itself, when its write becomes visible to other readers (PostgreSQL: in
   * the write's own transaction).
   */
  changeStamp(): Promise<string>;
  /** `listener` runs when data changes outside a façade call (background vectors written). */
  onChange(listener: () => void): void;

  /** Rebuilds the keyword index from the stored rows; returns how many rows it holds. */
  rebuildKeywordIndex(): Promise<number>;
  /** Sets every vector aside (reindex re-embeds them all). */
  clearVectors(): Promise<void>;

  /**
   * Writes a consistent copy of the store to `request.path` (temp file, checked, renamed onto it).
   * Optional: without it, Memory.backup() is UNAVAILABLE.
   */
  backup?(request: BackupRequest): Promise<BackupReport>;

  /** Counts, sizes and the embedding state (the façade adds the reasons it knows of). */
  status(): Promise<MemoryStatus>;
  /**
   * Told of a failure the façade saw outside the engine's own calls (a recall's search): SQLite
   * refuses writes from then on when it says the file is damaged. Optional.
   */
  noteFailure?(error: MemoryError): void;
  /** True when the database answers. */
  ping(): Promise<boolean>;
  /** Releases the database (the embedder is closed before). */
  close(): Promise<void>;
}
