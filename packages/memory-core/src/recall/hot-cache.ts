import { MemoryError } from "@claw/memory-api";

export interface HotCacheOptions {
  /** Capacity; 0 disables caching entirely (every get misses, set is a no-op). */
  maxEntries: number;
  /** Lifetime of an entry in milliseconds, counted from its last set. */
  ttlMs: number;
  /** Injectable clock so tests can expire entries without sleeping. */
  now?: () => number;
}

/** Defaults the recall path uses: small enough to stay cheap, long enough to absorb agent retries. */
export const DEFAULT_HOT_CACHE_ENTRIES = 256;
export const DEFAULT_HOT_CACHE_TTL_MS = 5 * 60 * 1000;

interface Entry<V> {
  value: V;
  expiresAt: number;
}

/**
 * LRU cache with a time-to-live, for repeated identical recalls. Relies on Map keeping
 * insertion order: a hit is deleted and re-inserted, so the first key is always the least
 * recently used one and eviction is O(1).
 */
export class HotCache<V> {
  readonly #maxEntries: number;
  readonly #ttlMs: number;
  readonly #now: () => number;
  readonly #entries = new Map<string, Entry<V>>();

  constructor(options: HotCacheOptions) {
    if (!Number.isInteger(options.maxEntries) || options.maxEntries < 0) {
      throw MemoryError.invalidInput("maxEntries", `must be an integer >= 0, got ${options.maxEntries}`);
    }
    if (Number.isNaN(options.ttlMs) || options.ttlMs < 0) {
      throw MemoryError.invalidInput("ttlMs", `must be a number >= 0, got ${options.ttlMs}`);
    }
    this.#maxEntries = options.maxEntries;
    this.#ttlMs = options.ttlMs;
    this.#now = options.now ?? Date.now;
  }

  /** Live entries only: expired ones are dropped first so the count never includes stale data. */
  get size(): number {
    this.#sweepExpired(this.#now());
    return this.#entries.size;
  }

  get(key: string): V | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    this.#entries.delete(key);
    if (this.#now() >= entry.expiresAt) return undefined;
    this.#entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V): void {
    if (this.#maxEntries === 0) return;
    const now = this.#now();
    this.#entries.delete(key);
    if (this.#entries.size >= this.#maxEntries) this.#sweepExpired(now);
    while (this.#entries.size >= this.#maxEntries) {
      const oldest = this.#entries.keys().next();
      if (oldest.done === true) break;
      this.#entries.delete(oldest.value);
    }
    this.#entries.set(key, { value, expiresAt: now + this.#ttlMs });
  }

  delete(key: string): boolean {
    return this.#entries.delete(key);
  }

  /** Called on every write to the store, since any write may change any cached recall. */
  clear(): void {
    this.#entries.clear();
  }

  #sweepExpired(now: number): void {
    for (const [key, entry] of this.#entries) {
      if (now >= entry.expiresAt) this.#entries.delete(key);
    }
  }
}

/**
 * Stable cache key for a recall call. Object keys are sorted at every depth so property order
 * does not matter, `categories` is sorted because it is a set filter, Dates become ISO strings
 * (so a Date and its ISO string hit the same entry), and undefined properties are dropped so an
 * omitted option and an explicit `undefined` share a key.
 */
export function recallCacheKey(parts: Record<string, unknown>): string {
  const canonical: Record<string, unknown> = {};
  for (const name of Object.keys(parts).sort()) {
    const raw = parts[name];
    if (raw === undefined) continue;
    const value =
      name === "categories" && Array.isArray(raw)
        ? raw.map(canonicalise).sort(compareCanonical)
        : canonicalise(raw);
    canonical[name] = value;
  }
  return JSON.stringify(canonical);
}

function canonicalise(value: unknown): unknown {
  if (value instanceof Date) {
    return Number.isNaN(value.getTime()) ? "Invalid Date" : value.toISOString();
  }
  if (typeof value === "bigint") return value.toString();
  if (Array.isArray(value)) return value.map(canonicalise);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    const record = value as Record<string, unknown>;
    for (const name of Object.keys(record).sort()) {
      if (record[name] !== undefined) out[name] = canonicalise(record[name]);
    }
    return out;
  }
  return value;
}

function compareCanonical(a: unknown, b: unknown): number {
  const x = JSON.stringify(a);
  const y = JSON.stringify(b);
  return x < y ? -1 : x > y ? 1 : 0;
}
