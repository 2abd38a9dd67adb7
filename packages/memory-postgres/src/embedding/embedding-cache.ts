import { paramColumn, paramRows, singleRow } from "../db/param-rows.js";
import type { Queryable } from "../db/pool.js";
import type { SqlNames } from "../db/sql-names.js";
import { vectorsParam } from "../db/vector-params.js";

/**
 * The `claw_embedding_cache` table: vectors by (provider, model, content hash), shared by every
 * server on the database and bounded by least-recent access (`maxEntries`; 0 disables it).
 *
 * A few new entries wait in this process until the next single-statement write carries them: the
 * upsert of the `store()` their vectors were computed for (a store that embeds first is then the
 * lookup and the upsert, 2 statements instead of 3), or the write of the vectors a background batch
 * computed. Until then lookups here find them in memory; a put that leaves more than PENDING_MAX
 * waiting writes them all, and `flush()` writes what is left (Memory.flush(), close). Losing them
 * (a killed process) costs only a provider call later.
 *
 * With a writer of many entries (`writeMany`: COPY, cache-copy.ts) up to HOLD_MAX wait: an import's
 * vectors, embedded in batches, are then written together by one COPY before its rows (`flush()`),
 * and a background batch's by its vector write. A `store()` carries them only when they are few.
 *
 * Only statements of one shape carry them — the write's rows first, then these entries in key
 * order — and never a transaction in which another statement locks rows, nor a lookup (writeMany's
 * transaction stages them first, then one INSERT locks them in key order): rows are then always
 * locked in one order, and two servers carrying the same entries cannot deadlock.
 */
export interface EmbeddingCache {
  get(provider: string, model: string, hashes: readonly string[]): Promise<Map<string, Float32Array>>;
  put(
    provider: string,
    model: string,
    entries: ReadonlyArray<readonly [string, Float32Array]>,
  ): Promise<void>;
  /**
   * The entries waiting to be written, handed to a write statement that inserts them
   * (cacheInsertSql); none when more than `max` wait (they wait on for another write or flush()).
   */
  takePending(max?: number): PendingCacheEntries | null;
  /** Gives entries back to wait again (the write that took them failed). */
  restore(entries: PendingCacheEntries): void;
  /** Writes the entries still waiting. */
  flush(): Promise<void>;
}

/** New cache entries, taken by a write statement that inserts them (cacheInsertSql, cacheInsertParams). */
export interface PendingCacheEntries {
  rows: ReadonlyArray<{ provider: string; model: string; hash: string; vector: Float32Array }>;
  /** When they were computed: their created and accessed time. */
  at: string;
}

/**
 * Entries put between two evictions: a tenth of the bound, at least EVICT_EVERY_MIN; the cache
 * overshoots its bound by at most that many. An eviction walks the newest entries up to the bound (~15 ms at 10k on a server), so at a
 * hundredth of the bound a bulk import spent 40 % of its time evicting.
 */
const EVICT_EVERY_MIN = 64;
const EVICT_EVERY_SHARE = 0.1;
/**
 * Most entries that wait for a statement to carry them, and that a `store()` carries; without
 * writeMany, a bigger put (a backfill's) is written at once.
 */
export const PENDING_MAX = 16;
/**
 * Most entries that wait when many can be written at once (writeMany): an import's vectors, put in
 * batches of the provider's size, up to the store's import batch (1,000 by default) and more.
 */
const HOLD_MAX = 2_048;

/**
 * An INSERT of new cache entries, from the seven parameters starting at `$first`
 * (cacheInsertParams; the vectors in one binary parameter, db/vector-params.ts): a statement, or a
 * data-modifying CTE of another one.
 */
export function cacheInsertSql(names: SqlNames, first: number, entries: PendingCacheEntries): string {
  const p = (i: number) => `$${first + i}`;
  const rows = paramRows(
    [`${p(0)}::text`, `${p(1)}::text`, `${p(2)}::text`, `${p(3)}::int4`, `${p(4)}::int4`],
    entries.rows,
  );
  return `INSERT INTO ${names.cache} AS c (provider, model, content_hash, embedding, created_at, accessed_at)
    SELECT v.provider, v.model, v.hash, (${p(5)}::real[])[v.first:v.last], ${p(6)}::timestamptz, ${p(6)}::timestamptz
    FROM ${rows} AS v(provider, model, hash, first, last)
    ON CONFLICT (provider, model, content_hash)
    DO UPDATE SET embedding = EXCLUDED.embedding, accessed_at = EXCLUDED.accessed_at`;
}

/** The parameters of cacheInsertSql, in its order. */
export function cacheInsertParams(entries: PendingCacheEntries): unknown[] {
  const { rows } = entries;
  const { flat, first, last } = vectorsParam(rows.map((r) => r.vector));
  return [
    paramColumn(rows, (r) => r.provider),
    paramColumn(rows, (r) => r.model),
    paramColumn(rows, (r) => r.hash),
    paramColumn(rows, (_, i) => first[i]),
    paramColumn(rows, (_, i) => last[i]),
    flat,
    entries.at,
  ];
}

export function createEmbeddingCache(
  db: Queryable,
  names: SqlNames,
  options: {
    maxEntries: number;
    now: () => Date;
    /** Writes many entries at once (by COPY: cache-copy.ts); without it, an INSERT takes them. */
    writeMany?: (entries: PendingCacheEntries) => Promise<void>;
  },
): EmbeddingCache {
  const { writeMany } = options;
  const hold = writeMany === undefined ? PENDING_MAX : HOLD_MAX;
  const evictEvery = Math.max(EVICT_EVERY_MIN, Math.floor(options.maxEntries * EVICT_EVERY_SHARE));
  /** The eviction under way: one at a time in a process; puts meanwhile do not start another. */
  let evicting: Promise<void> | null = null;
  let putSinceEviction = evictEvery;
  /** Waiting entries by provider, model and hash (one row each: ON CONFLICT takes a key once). */
  let pending = new Map<string, { provider: string; model: string; hash: string; vector: Float32Array }>();
  const keyOf = (provider: string, model: string, hash: string) => `${provider}\u0000${model}\u0000${hash}`;

  function takePending(max = Number.POSITIVE_INFINITY): PendingCacheEntries | null {
    if (pending.size === 0 || pending.size > max) return null;
    // In key order: the order in which the INSERT locks rows of the cache that exist already.
    const rows = [...pending.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, row]) => row);
    pending = new Map();
    return { rows, at: options.now().toISOString() };
  }

  function restore(entries: PendingCacheEntries): void {
    for (const row of entries.rows) {
      const key = keyOf(row.provider, row.model, row.hash);
      if (!pending.has(key)) pending.set(key, row);
    }
  }

  async function flush(): Promise<void> {
    const taken = takePending();
    if (taken === null) return;
    try {
      if (writeMany !== undefined && taken.rows.length > PENDING_MAX) await writeMany(taken);
      else await db.query(cacheInsertSql(names, 1, taken), cacheInsertParams(taken));
    } catch (error) {
      restore(taken);
      throw error;
    }
  }

  /**
   * Deletes the least recently used entries beyond the bound. Entries older than the bound-th newest
   * (an index walk over live rows only, not over the dead ones earlier evictions left at the old
   * end) are locked SKIP LOCKED: an eviction never waits, so evictions and writes of other servers
   * cannot deadlock with it; what another holds is left for the next eviction.
   */
  async function evictOldest(): Promise<void> {
    await db.query(
      `WITH edge AS (
         SELECT accessed_at, provider, model, content_hash FROM ${names.cache}
         ORDER BY accessed_at DESC, provider DESC, model DESC, content_hash DESC OFFSET $1 LIMIT 1
       ), old AS (
         SELECT c.provider, c.model, c.content_hash FROM ${names.cache} c, edge e
         WHERE c.accessed_at <= e.accessed_at
           AND (c.accessed_at, c.provider, c.model, c.content_hash) <= (e.accessed_at, e.provider, e.model, e.content_hash)
         FOR UPDATE OF c SKIP LOCKED)
       DELETE FROM ${names.cache} c USING old
       WHERE c.provider = old.provider AND c.model = old.model AND c.content_hash = old.content_hash`,
      [options.maxEntries],
    );
  }

  return {
    async get(provider, model, hashes) {
      const found = new Map<string, Float32Array>();
      if (options.maxEntries === 0 || hashes.length === 0) return found;
      for (const hash of hashes) {
        const waiting = pending.get(keyOf(provider, model, hash));
        if (waiting !== undefined) found.set(hash, waiting.vector);
      }
      const asked = [...new Set(hashes.filter((h) => !found.has(h)))];
      if (asked.length === 0) return found;
      // One statement reads and touches the hits: accessed_at drives eviction.
      // One hash as a scalar, so the statement keeps its generic plan (db/param-rows.ts).
      const { rows } = await db.query<{ content_hash: string; embedding: number[] }>(
        `UPDATE ${names.cache} SET accessed_at = $4
         WHERE provider = $1 AND model = $2 AND content_hash = ${singleRow(asked) ? "$3::text" : "ANY($3::text[])"}
         RETURNING content_hash, embedding`,
        [provider, model, paramColumn(asked, (h) => h), options.now().toISOString()],
      );
      for (const row of rows) found.set(row.content_hash, Float32Array.from(row.embedding));
      return found;
    },
    async put(provider, model, entries) {
      if (options.maxEntries === 0 || entries.length === 0) return;
      for (const [hash, vector] of entries) {
        pending.set(keyOf(provider, model, hash), { provider, model, hash, vector });
      }
      putSinceEviction += entries.length;
      const evict = putSinceEviction >= evictEvery;
      if (pending.size <= hold && !evict) return;
      await flush();
      if (!evict || evicting !== null) return;
      putSinceEviction = 0;
      evicting = evictOldest().finally(() => {
        evicting = null;
      });
      await evicting;
    },
    takePending,
    restore,
    flush,
  };
}
