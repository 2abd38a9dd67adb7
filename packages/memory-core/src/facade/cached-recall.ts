// Recall for every backend: answers a validated request from the hot cache of recent results, or
// runs the recall engine over the backend's searches and caches what it returns. A cached result
// is served only while the backend's change stamp still reads what it read before the result was
// computed (another connection or server wrote: PRAGMA data_version, a shared counter), and the
// façade clears the cache after each of its own writes.
import type { MemoryBackend, MemoryEntry, RecalledRow, RecallRequest, RecallRow } from "@claw/memory-api";
import type { MemorySettings } from "../config/config-schema.js";
import { HotCache, recallCacheKey } from "../recall/hot-cache.js";
import { runRecallEngine } from "../recall/recall-engine.js";
import { storageFailure } from "../storage-failure.js";

export interface CachedRecall {
  /** The entries for `request` (copies: callers cannot change what is cached). */
  recall(request: RecallRequest): Promise<MemoryEntry[]>;
  /** Drops every cached result (after a write). */
  clear(): void;
}

export interface CachedRecallDeps {
  backend: MemoryBackend;
  settings: MemorySettings;
  now: () => Date;
  warnOnce: (reason: string, data?: Record<string, unknown>) => void;
}

/**
 * The cache is sized by `hot_cache_size` and `hot_cache_ttl_seconds`. Failures other than
 * MemoryErrors and aborts surface as STORAGE.
 */
export function createCachedRecall(deps: CachedRecallDeps): CachedRecall {
  const { backend, settings } = deps;
  const hot = new HotCache<{ stamp: string; entries: MemoryEntry[]; expires: number }>({
    maxEntries: settings.hotCacheSize,
    ttlMs: settings.hotCacheTtlSeconds * 1000,
  });

  async function run(request: RecallRequest): Promise<MemoryEntry[]> {
    const source = backend.recallSource(request);
    const recalled = await runRecallEngine(source, deps, request);
    const entries = await backend.recalledEntries(recalled, request.withEmbeddings);
    return request.explain === true ? withExplanations(entries, recalled) : entries;
  }

  async function recall(request: RecallRequest): Promise<MemoryEntry[]> {
    try {
      if (settings.hotCacheSize === 0) return await run(request);
      // The moment expired entries are left out moves with every call: it is not part of the key.
      const key = recallCacheKey({
        ...request.filter,
        aliveAt: undefined,
        ...request,
        filter: undefined,
        signal: undefined,
      });
      const stamp = await backend.changeStamp();
      const cached = hot.get(key);
      const now = deps.now().getTime();
      if (cached !== undefined && cached.stamp === stamp && now < cached.expires)
        return cached.entries.map(copyOf);
      const entries = await run(request);
      // A result holds until one of its entries expires (an entry outside it expiring changes nothing).
      hot.set(key, { stamp, entries, expires: firstExpiry(entries) });
      return entries.map(copyOf);
    } catch (error) {
      if ((error as Error).name === "AbortError") throw error;
      const failure = storageFailure(error);
      backend.noteFailure?.(failure);
      throw failure;
    }
  }

  return { recall, clear: () => hot.clear() };
}

/** A copy a caller may change without changing what is cached. */
function copyOf(entry: MemoryEntry): MemoryEntry {
  const { explain } = entry;
  if (explain === undefined) return { ...entry };
  const keyword = explain.keyword && { ...explain.keyword, terms: [...explain.keyword.terms] };
  return {
    ...entry,
    explain: {
      ...explain,
      ...(keyword ? { keyword } : {}),
      ...(explain.vector ? { vector: { ...explain.vector } } : {}),
    },
  };
}

/**
 * Each entry with its row's explanation. A backend returns the rows' entries in order but may
 * leave out a row deleted meanwhile, so rows are matched by key, in order.
 */
function withExplanations(
  entries: MemoryEntry[],
  recalled: readonly RecalledRow<RecallRow>[],
): MemoryEntry[] {
  let i = 0;
  for (const entry of entries) {
    while (i < recalled.length && recalled[i]?.row.key !== entry.key) i++;
    const explain = recalled[i]?.explain;
    if (explain !== undefined) entry.explain = explain;
    i++;
  }
  return entries;
}

/** When the first of `entries` expires (ms since the epoch); Infinity when none does. */
function firstExpiry(entries: readonly MemoryEntry[]): number {
  let first = Number.POSITIVE_INFINITY;
  for (const entry of entries) {
    if (entry.expiresAt !== undefined) first = Math.min(first, Date.parse(entry.expiresAt));
  }
  return first;
}
