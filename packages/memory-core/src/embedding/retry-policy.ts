import { setTimeout as sleep } from "node:timers/promises";
import { isMemoryError } from "@claw/memory-api";

/** How failed provider requests are retried: how often, for how long, and how long to wait between tries. */
export interface RetryPolicy {
  /** Retries after the first attempt. */
  maxRetries: number;
  /** No attempt starts, and no wait extends, past this many ms after the first attempt. */
  deadlineMs: number;
  /** First backoff; doubles per retry (with jitter) up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
}

/**
 * The retry policy's defaults; `embedding_max_retries` and `embedding_retry_deadline_ms` override
 * the first two.
 */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 4,
  deadlineMs: 60_000,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
};

/**
 * Runs `attempt` until it succeeds, fails with an error that is not retryable, runs out of
 * retries, or would pass the deadline. A provider's `Retry-After` (MemoryError.retryAfterSeconds)
 * replaces the exponential backoff for that wait. Only MemoryErrors marked retryable are retried
 * (429, 5xx, timeouts, connection failures), so a bad key fails at once.
 */
export async function withRetries<T>(
  attempt: () => Promise<T>,
  policy: RetryPolicy,
  options: {
    signal?: AbortSignal;
    now?: () => number;
    random?: () => number;
    onRetry?: (error: unknown, waitMs: number) => void;
    /** Which failures are retried; default: MemoryErrors marked retryable. */
    retryIf?: (error: unknown) => boolean;
  } = {},
): Promise<T> {
  const retryIf = options.retryIf ?? ((error: unknown) => isMemoryError(error) && error.retryable);
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const started = now();
  for (let retry = 0; ; retry++) {
    try {
      return await attempt();
    } catch (error) {
      if (!retryIf(error) || retry >= policy.maxRetries) throw error;
      const backoff = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry) * (0.5 + random() / 2);
      const retryAfter = isMemoryError(error) ? error.retryAfterSeconds : undefined;
      const wait = retryAfter !== undefined ? retryAfter * 1000 : backoff;
      if (now() + wait - started > policy.deadlineMs) throw error;
      options.onRetry?.(error, wait);
      await sleep(wait, undefined, { signal: options.signal });
    }
  }
}
