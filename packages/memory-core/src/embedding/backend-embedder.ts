// The façade's view of a backend's embedding machinery (BackendEmbedder): the embedding worker,
// and the backfill of whatever still lacks a vector, stopped between batches when the store closes.
import type { BackendEmbedder, Logger } from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";
import type { EmbeddingWorker, VectorRows } from "./embedding-worker.js";
import { startMissingSweep } from "./missing-sweep.js";
import { settleWithin } from "./settle-within.js";

type Progress = (done: number, total: number) => void;

export interface BackendEmbedderOptions {
  /**
   * Another way to backfill (SQLite: vendor batch jobs), given the normal one to fall back on or
   * to finish with. `abort` stops it when the store closes.
   */
  backfillWith?: {
    backfill(normal: (onProgress?: Progress) => Promise<number>, onProgress?: Progress): Promise<number>;
    abort(): void;
  };
  /**
   * Embeds, every `intervalMs` (0 = never), rows left without a vector that nobody is embedding
   * (missing-sweep.ts), `batchSize` at a time.
   */
  sweep?: { intervalMs: number; batchSize?: number; logger: Logger };
  /** Runs after every backfill and sweep, failed or not (PostgreSQL: refresh the planner's statistics). */
  afterBackfill?: () => Promise<void>;
}

/**
 * The BackendEmbedder a store uses: background and immediate embedding through `worker`, vectors written to
 * `rows`.
 */
export function createBackendEmbedder(
  worker: EmbeddingWorker,
  rows: VectorRows,
  options: BackendEmbedderOptions = {},
): BackendEmbedder {
  const closed = new AbortController();
  const running = new Set<Promise<number>>();

  /** Runs a backfill or a sweep so that close() waits for it, then lets the backend follow up. */
  async function tracked(work: Promise<number>): Promise<number> {
    running.add(work);
    try {
      return await work;
    } finally {
      running.delete(work);
      await options.afterBackfill?.();
    }
  }

  function backfill(batchSize: number, onProgress?: Progress): Promise<number> {
    const normal = (progress?: Progress) => backfillMissing(worker, rows, batchSize, progress, closed.signal);
    return tracked(
      options.backfillWith ? options.backfillWith.backfill(normal, onProgress) : normal(onProgress),
    );
  }

  const sweep =
    options.sweep === undefined
      ? null
      : startMissingSweep({
          intervalMs: options.sweep.intervalMs,
          logger: options.sweep.logger,
          busy: () => running.size > 0 || worker.pending > 0,
          sweep: async () => {
            const after = await rows.sweepAfter();
            const size = options.sweep?.batchSize ?? 64;
            try {
              return await tracked(backfillMissing(worker, rows, size, undefined, closed.signal, after));
            } catch (error) {
              // Closing stops a sweep between batches; that is not a failure to report.
              if (closed.signal.aborted) return 0;
              throw error;
            }
          },
        });

  return {
    get provider() {
      return worker.provider;
    },
    get pending() {
      return worker.pending;
    },
    get lastError() {
      return worker.lastError;
    },
    enqueue: (jobs) => worker.enqueue(jobs),
    embedNow: (jobs) => worker.embedNow(jobs),
    embedQuery: (text, signal) => worker.embedQuery(text, signal),
    embedTexts: (texts, purpose, signal) => worker.embedTexts(texts, purpose, signal),
    backfill,
    flush: () => worker.flush(),
    async stopBackfill(timeoutMs) {
      sweep?.stop();
      closed.abort();
      options.backfillWith?.abort();
      await settleWithin(running, timeoutMs);
    },
    close: (timeoutMs) => worker.close(timeoutMs),
  };
}

/**
 * Embeds every entry without a vector, `batchSize` at a time in row-id order. Each batch commits
 * on its own, so an interrupted backfill resumes where it stopped, and processes backfilling
 * together split the rows (rows another one holds are left to it). Returns the vectors written;
 * `onProgress` hears (rows handled, rows missing at the start). Once `closed` aborts, it stops
 * before the next batch: UNAVAILABLE.
 */
export async function backfillMissing(
  worker: EmbeddingWorker,
  rows: VectorRows,
  batchSize: number,
  onProgress?: Progress,
  closed?: AbortSignal,
  from = 0,
): Promise<number> {
  // Counted only for progress: a sweep of a large store should not count it every minute.
  const total = onProgress === undefined ? 0 : await rows.countMissing();
  let done = 0;
  let written = 0;
  for (let after = from; ; ) {
    if (closed?.aborted) throw new MemoryError("UNAVAILABLE", "the memory was closed during a backfill");
    const batch = await worker.embedMissing(batchSize, after);
    if (batch.claimed === 0) return written;
    done += batch.claimed;
    written += batch.written;
    after = batch.last;
    onProgress?.(Math.min(done, total), total);
  }
}
