import type { Queryable } from "../db/pool.js";
import type { SqlNames } from "../db/sql-names.js";
import type { EmbeddingWorker } from "./embedding-worker.js";

/**
 * Embeds every entry without a vector, `batchSize` at a time. Each batch is claimed, embedded and
 * committed on its own: an interrupted backfill resumes where it stopped, and servers backfilling
 * together split the rows between them (rows another server holds are left to it). Returns the
 * vectors written; `onProgress` hears (rows handled, rows missing at the start).
 */
export async function backfillMissing(
  db: Queryable,
  names: SqlNames,
  worker: EmbeddingWorker,
  batchSize: number,
  options: { onProgress?: (done: number, total: number) => void; isOpen: () => void },
): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*) AS n FROM ${names.memories} WHERE embedding IS NULL`,
  );
  const total = rows[0]?.n ?? 0;
  let done = 0;
  let written = 0;
  for (;;) {
    options.isOpen();
    const batch = await worker.embedMissing(batchSize);
    if (batch.claimed === 0) return written;
    done += batch.claimed;
    written += batch.written;
    options.onProgress?.(Math.min(done, total), total);
  }
}

/** Sets every vector aside (reindex re-embeds them all). */
export async function clearVectors(db: Queryable, names: SqlNames): Promise<void> {
  await db.query(
    `UPDATE ${names.memories} SET embedding = NULL, embedding_hash = NULL, embed_claimed_until = NULL`,
  );
}
