// Recall for SqliteMemory: answers a validated request from the hot cache of recent results, or runs
// the recall pipeline and caches what it returns. The cache is cleared by this store's own writes
// (clear()) and, through `PRAGMA data_version`, by what other connections commit to the same file.
import type { MemoryEntry } from "@claw/memory-api";
import type { MemorySettings } from "../config/config-schema.js";
import type { RecallRequest } from "../facade/memory-requests.js";
import { HotCache, recallCacheKey } from "../recall/hot-cache.js";
import { type RecallDeps, runRecall } from "./recall-pipeline.js";
import { guardStorageAsync } from "./storage-guard.js";

export interface CachedRecall {
  /** The entries for `request` (copies: callers cannot change what is cached). */
  recall(request: RecallRequest): Promise<MemoryEntry[]>;
  /** Drops every cached result (after a write). */
  clear(): void;
}

/**
 * The cache is sized by `hot_cache_size` and `hot_cache_ttl_seconds` (INVALID_INPUT when they are
 * not valid). Pipeline failures surface as STORAGE; MemoryErrors and AbortErrors pass through.
 */
export function createCachedRecall(deps: RecallDeps & { settings: MemorySettings }): CachedRecall {
  const { statements, settings } = deps;
  const hot = new HotCache<MemoryEntry[]>({
    maxEntries: settings.hotCacheSize,
    ttlMs: settings.hotCacheTtlSeconds * 1000,
  });
  let hotDataVersion = -1;

  /**
   * Another connection (a second process or SqliteMemory on the same brain.db) committed since the
   * last recall: its writes did not clear this instance's hot cache, so clear it now.
   * `PRAGMA data_version` changes only on other connections' commits and costs microseconds.
   */
  function dropHotCacheIfChangedElsewhere(): void {
    const version = statements.get("PRAGMA data_version").pluck().get() as number;
    if (version !== hotDataVersion) {
      hot.clear();
      hotDataVersion = version;
    }
  }

  async function recall(request: RecallRequest): Promise<MemoryEntry[]> {
    const cacheKey = recallCacheKey({ ...request.filter, ...request, filter: undefined, signal: undefined });
    dropHotCacheIfChangedElsewhere();
    const cached = hot.get(cacheKey);
    if (cached !== undefined) return cached.map((e) => ({ ...e }));
    const entries = await guardStorageAsync(() => runRecall(deps, request));
    hot.set(cacheKey, entries);
    return entries.map((e) => ({ ...e }));
  }

  return { recall, clear: () => hot.clear() };
}
