// A token bucket per caller: `capacity` requests at once, refilled at `refillPerSecond`.
import { MemoryError } from "@claw/memory-api";

/** A token bucket per caller: its size and how fast it refills. */
export interface RateLimitSettings {
  /** Requests a caller may make at once (the bucket's size). */
  capacity: number;
  /** Requests added back per second. */
  refillPerSecond: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

/** Most callers tracked at once; the least recently seen is forgotten first (it would be full anyway). */
const MAX_BUCKETS = 10_000;

/** Limits the requests of each caller with a token bucket; an empty bucket answers RATE_LIMITED. */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly settings: RateLimitSettings,
    /** Milliseconds; injected so tests need not sleep. */
    private readonly now: () => number = Date.now,
  ) {
    if (!(settings.capacity >= 1) || !(settings.refillPerSecond > 0)) {
      throw MemoryError.invalidInput("rateLimit", "expected capacity ≥ 1 and refillPerSecond > 0");
    }
  }

  /** Takes one request from `key`'s bucket; RATE_LIMITED (with Retry-After) when it is empty. */
  take(key: string): { limit: number; remaining: number } {
    const now = this.now();
    const { capacity, refillPerSecond } = this.settings;
    const previous = this.buckets.get(key);
    let tokens = capacity;
    if (previous !== undefined) {
      const elapsed = Math.max(0, now - previous.at) / 1000;
      tokens = Math.min(capacity, previous.tokens + elapsed * refillPerSecond);
      this.buckets.delete(key); // re-inserted below, so the map stays in least-recently-seen order
    }
    if (tokens < 1) {
      this.remember(key, { tokens, at: now });
      const retryAfterSeconds = Math.max(1, Math.ceil((1 - tokens) / refillPerSecond));
      throw new MemoryError("RATE_LIMITED", `too many requests: retry in ${retryAfterSeconds} s`, {
        retryAfterSeconds,
      });
    }
    this.remember(key, { tokens: tokens - 1, at: now });
    return { limit: capacity, remaining: Math.floor(tokens - 1) };
  }

  private remember(key: string, bucket: Bucket): void {
    this.buckets.set(key, bucket);
    if (this.buckets.size > MAX_BUCKETS) {
      const oldest = this.buckets.keys().next().value;
      if (oldest !== undefined) this.buckets.delete(oldest);
    }
  }
}
