import type { MemoryEntry } from "@claw/memory-api";
import {
  HotCache,
  type MemorySettings,
  type RecallRequest,
  recallCacheKey,
  runRecallEngine,
} from "@claw/memory-core";
import { readChanges } from "../db/change-stamp.js";
import type { StoreParts } from "../open-store.js";
import { rowToEntry } from "../store/entry-row.js";
import { postgresRecallSource } from "./recall-source.js";

export interface CachedRecallDeps {
  parts: StoreParts;
  settings: MemorySettings;
  textSearchConfig: string;
  now: () => Date;
  warnOnce: (reason: string, data?: Record<string, unknown>) => void;
}

/**
 * Core's recall pipeline over PostgreSQL behind the hot cache (256 entries, 5 min by default). A
 * cached result is served only while the shared change counter still reads what it read before
 * the result was computed, so a write by any server invalidates it (change-stamp.ts).
 */
export class CachedRecall {
  private readonly hot: HotCache<{ stamp: string; entries: MemoryEntry[] }>;

  constructor(private readonly deps: CachedRecallDeps) {
    this.hot = new HotCache({
      maxEntries: deps.settings.hotCacheSize,
      ttlMs: deps.settings.hotCacheTtlSeconds * 1000,
    });
  }

  /** This server wrote: its results are stale even before the counter moves. */
  clear(): void {
    this.hot.clear();
  }

  /** Copies, so a caller mutating them cannot corrupt the cache. */
  async recall(request: RecallRequest): Promise<MemoryEntry[]> {
    const { parts, settings } = this.deps;
    const key = recallCacheKey({ ...request.filter, ...request, filter: undefined, signal: undefined });
    const stamp = settings.hotCacheSize > 0 ? await readChanges(parts.db, parts.names) : "";
    const cached = this.hot.get(key);
    if (cached !== undefined && cached.stamp === stamp) return cached.entries.map((e) => ({ ...e }));
    const source = postgresRecallSource(
      {
        ...parts,
        textSearchConfig: this.deps.textSearchConfig,
        sessionContextWeight: settings.sessionContextWeight,
      },
      request.filter,
      request.withEmbeddings,
    );
    const recalled = await runRecallEngine(
      source,
      { settings, now: this.deps.now, warnOnce: this.deps.warnOnce },
      request,
    );
    const entries = recalled.map((r) => rowToEntry(r.row, r.score));
    this.hot.set(key, { stamp, entries });
    return entries.map((e) => ({ ...e }));
  }
}
