// When written entries get their vectors. Deferred (the default): after the write, in the
// background. Otherwise before the write, which then holds them: one row version instead of three
// (written, claimed, given its vector), and on PostgreSQL no claim or vector write of its own.
import type { BackendEmbedder, BulkWrites, EmbedJob } from "@claw/memory-api";
import { madeWrites } from "./write-requests.js";

/** The most vector floats a write computes before it is made (16 MB); a bigger import is written first and embedded after. */
const BEFORE_WRITE_MAX_FLOATS = 4_000_000;
const FAILED = "embedding failed; entries stay keyword-only until backfill";

export interface WriteVectorsDeps {
  /** Read at every call (the backend's). */
  readonly embedder: BackendEmbedder | null;
  deferred: boolean;
  warnOnce(reason: string, data?: Record<string, unknown>): void;
}

export interface WriteVectors {
  /**
   * The writes with a vector for each that lacks one (set in place), unless deferred or too many.
   * `keywordOnly` when the provider failed (warned once): the entries are written without vectors
   * and left to the sweep or a backfill; afterWrite must not send them to the provider again.
   */
  beforeWrite(writes: BulkWrites): Promise<{ writes: BulkWrites; keywordOnly: boolean }>;
  /** Deferred mode queues the written rows' jobs; otherwise they are embedded before returning. */
  afterWrite(jobs: EmbedJob[]): Promise<void>;
}

export function createWriteVectors(deps: WriteVectorsDeps): WriteVectors {
  const { deferred } = deps;
  const failed = (error: unknown) => deps.warnOnce(FAILED, { error: (error as Error).message });
  return {
    async beforeWrite(writes) {
      const embedder = deps.embedder;
      if (embedder === null || deferred) return { writes, keywordOnly: false };
      if (writes.count * embedder.provider.dimensions > BEFORE_WRITE_MAX_FLOATS) {
        return { writes, keywordOnly: false };
      }
      const made = madeWrites([...writes]);
      const todo = made.list.filter((w) => w.embedding === null);
      if (todo.length === 0) return { writes: made, keywordOnly: false };
      try {
        const vectors = await embedder.embedTexts(
          todo.map((w) => w.content),
          "document",
        );
        todo.forEach((write, i) => {
          write.embedding = vectors[i] ?? null;
        });
        return { writes: made, keywordOnly: false };
      } catch (error) {
        failed(error);
        return { writes: made, keywordOnly: true };
      }
    },
    async afterWrite(jobs) {
      const embedder = deps.embedder;
      if (embedder === null || jobs.length === 0) return;
      if (deferred) {
        embedder.enqueue(jobs);
        return;
      }
      try {
        await embedder.embedNow(jobs);
      } catch (error) {
        failed(error);
      }
    },
  };
}
