// The vectors of a SQLite store as the façade uses them (BackendEmbedder): the embedding pipeline
// (batching, retries, cache, the content-hash guard) and the backfill of whatever still lacks a
// vector, through vendor batch jobs when they apply.
import type { BackendEmbedder } from "@claw/memory-api";
import { settleWithin } from "../embedding/settle-within.js";
import { backfillMissing } from "./backfill.js";
import { type BatchBackfillOptions, createBatchBackfill } from "./batch-backfill.js";
import type { EmbeddingPipeline } from "./embedding-pipeline.js";

export function createSqliteEmbedder(
  options: BatchBackfillOptions & { pipeline: EmbeddingPipeline },
): BackendEmbedder {
  const { db, statements, pipeline } = options;
  /** Vendor batch jobs for large backfills (`embedding_batch_api`); null when they cannot apply. */
  const batchBackfill = createBatchBackfill(options);
  const closed = new AbortController();
  const running = new Set<Promise<number>>();

  async function backfill(batchSize: number, onProgress?: (done: number, total: number) => void) {
    const normal = (progress?: (done: number, total: number) => void) =>
      backfillMissing(db, statements, pipeline, batchSize, progress, closed.signal);
    const work = batchBackfill === null ? normal(onProgress) : batchBackfill.backfill(normal, onProgress);
    running.add(work);
    try {
      return await work;
    } finally {
      running.delete(work);
    }
  }

  return {
    get provider() {
      return pipeline.provider;
    },
    get pending() {
      return pipeline.pending;
    },
    get lastError() {
      return pipeline.lastError;
    },
    enqueue: (jobs) => pipeline.enqueue(jobs),
    embedNow: (jobs) => pipeline.embedDocuments(jobs),
    embedQuery: (text, signal) => pipeline.embedQuery(text, signal),
    embedTexts: (texts, purpose, signal) => pipeline.embedTexts(texts, purpose, signal),
    backfill,
    flush: () => pipeline.flush(),
    async stopBackfill(timeoutMs) {
      closed.abort();
      batchBackfill?.abort();
      await settleWithin(running, timeoutMs);
    },
    close: (timeoutMs) => pipeline.close(timeoutMs),
  };
}
