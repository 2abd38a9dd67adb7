// Rows this process claimed for embedding in the very statement that wrote them. With deferred
// embedding every written row without a vector becomes a job of this process's worker, which
// claimed it with an UPDATE of its own before embedding it: one more row version a row (not HOT:
// after a bulk import the pages are full, so every index took the new version again, the full-text
// one included) and 86 µs a row of a 100k import. The upsert now sets the lease itself
// (upsert-sql.ts), and the worker's claim of such a row is answered from here without a statement.
import type { EmbedJob } from "@claw/memory-api";

/** Most rows remembered; past it the oldest are forgotten and claimed again when their lease ends. */
const MAX_ROWS = 1_000_000;

export interface PreClaims {
  /** Rows whose write claimed them here, with the content written. */
  add(jobs: readonly EmbedJob[]): void;
  /** Those of `rids` that a write here claimed (and forgets them); the rest are claimed as before. */
  take(rids: readonly number[]): EmbedJob[];
  /** Every row still remembered (and forgets them): at close, their claims are given up. */
  takeAll(): EmbedJob[];
}

export function createPreClaims(maxRows = MAX_ROWS): PreClaims {
  const rows = new Map<number, EmbedJob>();
  return {
    add(jobs) {
      for (const job of jobs) {
        // A row written again is remembered once more, last: its newer content is the one to embed.
        rows.delete(job.rid);
        rows.set(job.rid, job);
      }
      for (const rid of rows.keys()) {
        if (rows.size <= maxRows) break;
        rows.delete(rid);
      }
    },
    take(rids) {
      const taken: EmbedJob[] = [];
      for (const rid of rids) {
        const job = rows.get(rid);
        if (job === undefined) continue;
        rows.delete(rid);
        taken.push(job);
      }
      return taken;
    },
    takeAll() {
      const all = [...rows.values()];
      rows.clear();
      return all;
    },
  };
}
