import { MemoryError } from "@claw/memory-api";
import type { Database } from "better-sqlite3";
import type { EmbeddingPipeline, EmbedJob } from "./embedding-pipeline.js";
import type { StatementCache } from "./statement-cache.js";

/**
 * Embeds every entry without a vector, `batchSize` at a time in rowid order. Each batch commits
 * on its own, so an interrupted backfill resumes where it stopped. Returns the vectors written.
 * Once `closed` aborts (the memory is closing), it stops before the next batch: UNAVAILABLE.
 */
export async function backfillMissing(
  db: Database,
  statements: StatementCache,
  pipeline: EmbeddingPipeline,
  batchSize: number,
  onProgress?: (done: number, total: number) => void,
  closed?: AbortSignal,
): Promise<number> {
  const missing = statements.get(
    "SELECT rid, namespace, content_hash AS hash, content FROM memories WHERE embedding IS NULL AND rid > ? ORDER BY rid LIMIT ?",
  );
  const total = (
    db.prepare("SELECT count(*) AS n FROM memories WHERE embedding IS NULL").get() as { n: number }
  ).n;
  let done = 0;
  let written = 0;
  for (let after = 0; ; ) {
    if (closed?.aborted) throw new MemoryError("UNAVAILABLE", "the memory was closed during a backfill");
    const jobs = missing.all(after, batchSize) as EmbedJob[];
    if (jobs.length === 0) break;
    written += await pipeline.embedDocuments(jobs);
    done += jobs.length;
    after = (jobs[jobs.length - 1] as EmbedJob).rid;
    onProgress?.(Math.min(done, total), total);
  }
  return written;
}
