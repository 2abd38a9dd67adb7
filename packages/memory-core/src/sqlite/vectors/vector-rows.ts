// The rows of a SQLite store as the embedding worker sees them (VectorRows). One process writes a
// brain.db at a time, so a claim is a read: no lease is needed.
import type { EmbedJob } from "@claw/memory-api";
import type { Database } from "better-sqlite3";
import type { VectorRows } from "../../embedding/embedding-worker.js";
import { float32ToBlob } from "../../recall/vector-math.js";
import type { StatementCache } from "../schema/statement-cache.js";
import type { StorageGuard } from "../storage-guard.js";
import type { VectorIndex } from "./vector-index.js";

/** meta key: the highest row id when the current provider was recorded (VectorRows.sweepAfter). */
export const SWEEP_AFTER = "embedding_sweep_after";

const JOB_COLUMNS = "rid, namespace, content_hash AS hash, content";

export function sqliteVectorRows(
  db: Database,
  statements: StatementCache,
  vectors: VectorIndex,
  guard: StorageGuard,
): VectorRows {
  return {
    claim: async (rids, limit, afterRid) =>
      guard(() => {
        if (rids === null) {
          return statements
            .get(
              `SELECT ${JOB_COLUMNS} FROM memories WHERE embedding IS NULL AND rid > ? ORDER BY rid LIMIT ?`,
            )
            .all(afterRid, limit) as EmbedJob[];
        }
        const jobs: EmbedJob[] = [];
        // Chunked to stay under SQLite's bound-parameter limit.
        for (let i = 0; i < rids.length && jobs.length < limit; i += 500) {
          const chunk = rids.slice(i, i + 500);
          const found = statements
            .get(
              `SELECT ${JOB_COLUMNS} FROM memories
               WHERE embedding IS NULL AND rid IN (${chunk.map(() => "?").join(",")}) ORDER BY rid`,
            )
            .all(...chunk) as EmbedJob[];
          jobs.push(...found);
        }
        return jobs.slice(0, limit);
      }),

    write: async (jobs, found) =>
      guard(() => {
        const update = statements.get(
          "UPDATE memories SET embedding = ?, embedding_content_hash = ? WHERE rid = ? AND content_hash = ?",
        );
        let written = 0;
        try {
          db.transaction(() => {
            for (const job of jobs) {
              const vector = found.get(job.hash);
              if (vector === undefined) continue;
              const blob = float32ToBlob(vector);
              if (update.run(blob, job.hash, job.rid, job.hash).changes === 1) {
                vectors.upsert(job.rid, job.namespace, blob);
                written++;
              }
            }
          }).immediate();
        } catch (error) {
          // A rolled-back write leaves the in-memory vector codes ahead of the database.
          vectors.invalidate();
          throw error;
        }
        return written;
      }),

    release: async () => {},

    sweepAfter: async () =>
      guard(() =>
        Number(statements.get("SELECT value FROM meta WHERE key = ?").pluck().get(SWEEP_AFTER) ?? 0),
      ),

    countMissing: async () =>
      guard(
        () =>
          (
            statements.get("SELECT count(*) AS n FROM memories WHERE embedding IS NULL").get() as {
              n: number;
            }
          ).n,
      ),
  };
}
