// Vectors on a full store (a full disk, a full `max_database_mb` quota): the write of a batch's
// vectors is retried with the backoff of the worker's retry policy, and a batch that still finds
// no room waits, parked, until a write goes through again or flush() is called: its entries stay
// keyword-only meanwhile, and no job is dropped. The vector cache is only an optimisation: a full
// store finds nothing in it and keeps nothing new.
import { type EmbedJob, type Logger, MemoryError } from "@claw/memory-api";
import { storageFailureCode } from "../storage-failure.js";
import { type RetryPolicy, withRetries } from "./retry-policy.js";

/** Whether `error` says the store has no room left. */
export function isStorageFull(error: unknown): boolean {
  return storageFailureCode(error) === "STORAGE_FULL";
}

/**
 * Runs `write`, retried with the backoff of `policy` while it fails with STORAGE_FULL (room may
 * be freed meanwhile); then throws STORAGE_FULL. `signal` stops the waiting.
 */
export function writeWhenRoom<T>(
  write: () => Promise<T>,
  policy: RetryPolicy,
  logger: Logger,
  signal: AbortSignal,
): Promise<T> {
  const attempt = () =>
    write().catch((error: unknown) => {
      if (!isStorageFull(error)) throw error;
      throw new MemoryError("STORAGE_FULL", `no room for vectors (${(error as Error).message})`, {
        cause: error,
        retryable: true,
      });
    });
  return withRetries(attempt, policy, {
    signal,
    retryIf: isStorageFull,
    onRetry: (error, waitMs) =>
      logger.debug("no room for vectors; retrying", {
        error: (error as Error).message,
        waitMs: Math.round(waitMs),
      }),
  });
}

/** A cache lookup: nothing found when the store is full (a lookup also writes: its access time). */
export async function lookupWithoutRoom<T>(lookup: () => T | Promise<T>, none: () => T): Promise<T> {
  try {
    return await lookup();
  } catch (error) {
    if (!isStorageFull(error)) throw error;
    return none();
  }
}

/** Caches vectors; a full store keeps none (the vectors in hand are written, or retried, anyway). */
export async function keepWithoutRoom(keep: () => void | Promise<void>, logger: Logger): Promise<void> {
  try {
    await keep();
  } catch (error) {
    if (!isStorageFull(error)) throw error;
    logger.debug("no room to cache vectors", { error: (error as Error).message });
  }
}

/** Deferred jobs whose vectors found no room, by row; the first of a run of them warns. */
export class WaitingForRoom {
  private readonly jobs = new Map<number, EmbedJob>();
  private warned = false;

  constructor(private readonly logger: Logger) {}

  get size(): number {
    return this.jobs.size;
  }

  park(batch: readonly EmbedJob[], error: string): void {
    for (const job of batch) this.jobs.set(job.rid, job);
    if (this.warned) return;
    this.warned = true;
    this.logger.warn(
      "the store is full: entries wait for their vectors until room is freed (the next write or flush() tries again)",
      { entries: this.jobs.size, error },
    );
  }

  /** Takes every parked job. */
  take(): EmbedJob[] {
    const jobs = [...this.jobs.values()];
    this.jobs.clear();
    return jobs;
  }

  /** Vectors were written: the next batch without room warns again. */
  roomFound(): void {
    this.warned = false;
  }
}
