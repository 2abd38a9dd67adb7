// The vectors of SqliteMemory's entries: embeds what store() and import() wrote (queued in deferred
// mode) and backfills whatever still lacks a vector, through vendor batch jobs when they apply.
import type { Logger, ProgressOptions } from "@claw/memory-api";
import type { Database } from "better-sqlite3";
import type { MemorySettings } from "../config/config-schema.js";
import * as check from "../validate-input.js";
import { backfillMissing } from "./backfill.js";
import { type BatchBackfillOptions, createBatchBackfill } from "./batch-backfill.js";
import type { EmbeddingPipeline, EmbedJob } from "./embedding-pipeline.js";
import type { StatementCache } from "./statement-cache.js";

/** The batch backfill's options (`pipeline` null = keyword-only: nothing is embedded), and: */
export interface EntryEmbedderOptions extends BatchBackfillOptions {
  /** Logs a degradation once per reason. */
  warnOnce: (reason: string, data?: Record<string, unknown>) => void;
}

export interface EntryEmbedder {
  /** Deferred mode queues the vectors; otherwise they are computed before returning. */
  embedLater(jobs: EmbedJob[]): Promise<void>;
  /** Embeds the entries without a vector, `batchSize` at a time; returns the vectors written. */
  backfill(batchSize: number, options: ProgressOptions): Promise<number>;
  /** Resolves once every running backfill has stopped (after abort(), promptly). */
  settled(): Promise<void>;
  /** Stops a running batch job's polling (the memory is closing). */
  abort(): void;
}

export function createEntryEmbedder(options: EntryEmbedderOptions): EntryEmbedder {
  const { db, statements, pipeline, settings, warnOnce } = options;
  /** Vendor batch jobs for large backfills (`embedding_batch_api`); null when they cannot apply. */
  const batchBackfill = createBatchBackfill({
    db,
    statements,
    pipeline,
    settings,
    logger: options.logger,
    addWarning: options.addWarning,
  });

  async function embedLater(jobs: EmbedJob[]): Promise<void> {
    if (pipeline === null || jobs.length === 0) return;
    if (settings.deferEmbedding ?? true) {
      pipeline.enqueue(jobs);
      return;
    }
    try {
      await pipeline.embedDocuments(jobs);
    } catch (error) {
      warnOnce("embedding failed; entries stay keyword-only until backfill", {
        error: (error as Error).message,
      });
    }
  }

  const closed = new AbortController();
  const running = new Set<Promise<number>>();

  async function backfill(batchSize: number, progress: ProgressOptions): Promise<number> {
    const size = check.limitOf(batchSize, "batchSize", 64, 4096);
    if (pipeline === null) return 0;
    const normal = (onProgress?: (done: number, total: number) => void) =>
      backfillMissing(db, statements, pipeline, size, onProgress, closed.signal);
    const work =
      batchBackfill === null
        ? normal(progress.onProgress)
        : batchBackfill.backfill(normal, progress.onProgress);
    running.add(work);
    try {
      return await work;
    } finally {
      running.delete(work);
    }
  }

  return {
    embedLater,
    backfill,
    abort: () => {
      closed.abort();
      batchBackfill?.abort();
    },
    settled: async () => {
      await Promise.allSettled([...running]);
    },
  };
}
