import type { EmbeddingProvider, EmbedJob, Logger } from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";
import {
  clipText,
  contentHash,
  DeferredQueue,
  maxInputChars,
  type RetryPolicy,
  requestEmbeddings,
  tokenBudgetBatches,
  withRetries,
} from "@claw/memory-core";
import type { Queryable } from "../db/pool.js";
import type { SqlNames } from "../db/sql-names.js";
import { type ClaimedRow, claimRows, releaseClaims, writeVectors } from "./claims.js";
import type { EmbeddingCache } from "./embedding-cache.js";

export type { EmbedJob };

export interface EmbeddingWorkerOptions {
  db: Queryable;
  names: SqlNames;
  provider: EmbeddingProvider;
  cache: EmbeddingCache;
  logger: Logger;
  /** Token budget of one provider request (~4 characters a token). */
  batchTokens: number;
  concurrency: number;
  timeoutMs: number;
  /** How failed document requests are retried (queries are not: they degrade to BM25). */
  retry: RetryPolicy;
  /** How long a claimed row stays ours: longer than one batch can take, retries included. */
  leaseMs: number;
  /** Called after vectors were written (recall caches must forget results). */
  onWrite: () => Promise<void>;
}

/**
 * Computes document vectors (the shared cache first, then the provider in token-bounded batches)
 * for rows it has claimed, and writes them under the content-hash guard. Deferred jobs run in the
 * background with bounded concurrency; `flush()` waits for them. Safe with several servers: a row
 * is embedded by whoever claims it (claims.ts).
 */
export class EmbeddingWorker {
  private readonly jobs: DeferredQueue<EmbedJob>;
  /** Rows claimed by batches still running, released if close() gives up on them. */
  private readonly claimedInFlight = new Set<readonly ClaimedRow[]>();
  lastError: string | undefined;

  constructor(private readonly options: EmbeddingWorkerOptions) {
    this.jobs = new DeferredQueue<EmbedJob>({
      concurrency: options.concurrency,
      nextBatch: (queued) => this.batches(queued).next().value ?? [],
      run: (batch) => this.runBatch(batch),
      onError: (error, batch, stopped) => {
        this.lastError = (error as Error).message;
        if (stopped) return; // the pool is gone; backfill embeds these later
        this.options.logger.warn("deferred embedding failed; the entries stay keyword-only until backfill", {
          entries: batch.length,
          error: this.lastError,
        });
      },
    });
  }

  get provider(): EmbeddingProvider {
    return this.options.provider;
  }

  /** Jobs queued or being embedded by this server. */
  get pending(): number {
    return this.jobs.pending;
  }

  /** Queues rows for background embedding (see core's DeferredQueue for batching and coalescing). */
  enqueue(jobs: readonly EmbedJob[]): void {
    this.jobs.enqueue(jobs);
  }

  /** Claims and embeds these rows now; returns how many received a vector. */
  async embedRows(jobs: readonly EmbedJob[], signal?: AbortSignal): Promise<number> {
    let written = 0;
    for (const batch of this.batches(jobs)) written += await this.runBatch(batch, signal);
    return written;
  }

  /** Claims up to `limit` rows lacking a vector (any rows: backfill) and embeds them. */
  async embedMissing(limit: number): Promise<{ claimed: number; written: number }> {
    const { db, names, leaseMs } = this.options;
    const claimed = await claimRows(db, names, null, limit, leaseMs);
    return { claimed: claimed.length, written: await this.embedClaimed(claimed) };
  }

  async embedQuery(text: string, signal?: AbortSignal): Promise<Float32Array> {
    const [vector] = await this.callProvider([this.clip(text)], "query", signal);
    if (vector === undefined) throw new MemoryError("PROVIDER", "the embedding provider returned no vector");
    return vector;
  }

  /** Vectors for `texts` in order; documents through the cache, queries straight from the provider. */
  async embedTexts(
    texts: readonly string[],
    purpose: "query" | "document",
    signal?: AbortSignal,
  ): Promise<Float32Array[]> {
    if (purpose === "query") {
      const clipped = texts.map((t) => this.clip(t));
      return withRetries(() => this.callProvider(clipped, purpose, signal), this.options.retry, { signal });
    }
    const items = texts.map((content) => ({ hash: contentHash(content), content }));
    const vectors = await this.cachedVectors(items, signal);
    return items.map((item) => vectors.get(item.hash) as Float32Array);
  }

  /** Resolves when no deferred job of this server is queued or running. */
  flush(): Promise<void> {
    return this.jobs.flush();
  }

  /** Stops taking jobs and waits up to `timeoutMs` for running ones; true when everything finished. */
  async close(timeoutMs: number): Promise<boolean> {
    const finished = await this.jobs.drain(timeoutMs);
    if (!finished) {
      this.options.logger.warn("closing with embeddings still pending; backfill will embed them later", {
        pending: this.pending,
      });
      // Another server (or the next start) may take these rows now rather than after the lease.
      const claimed = [...this.claimedInFlight].flat();
      await releaseClaims(this.options.db, this.options.names, claimed).catch(() => {});
    }
    this.jobs.stop();
    return finished;
  }

  private batches(jobs: readonly EmbedJob[]): Generator<EmbedJob[]> {
    return tokenBudgetBatches(jobs, {
      maxCount: this.options.provider.maxBatchSize ?? 64,
      batchTokens: this.options.batchTokens,
      maxChars: this.maxChars(),
    });
  }

  private async runBatch(batch: readonly EmbedJob[], signal?: AbortSignal): Promise<number> {
    const { db, names, leaseMs } = this.options;
    const rids = batch.map((j) => j.rid);
    const claimed = await claimRows(db, names, rids, rids.length, leaseMs);
    return this.embedClaimed(claimed, signal);
  }

  private async embedClaimed(claimed: readonly ClaimedRow[], signal?: AbortSignal): Promise<number> {
    if (claimed.length === 0) return 0;
    const { db, names } = this.options;
    let written: number;
    this.claimedInFlight.add(claimed);
    try {
      const vectors = await this.cachedVectors(claimed, signal);
      written = await writeVectors(
        db,
        names,
        claimed.map((row) => ({
          rid: row.rid,
          hash: row.hash,
          vector: vectors.get(row.hash) as Float32Array,
        })),
      );
    } catch (error) {
      await releaseClaims(db, names, claimed).catch(() => {});
      throw error;
    } finally {
      this.claimedInFlight.delete(claimed);
    }
    this.lastError = undefined; // the provider answers again: no longer a reason to report
    if (written > 0) await this.options.onWrite();
    return written;
  }

  private async cachedVectors(
    items: readonly { hash: string; content: string }[],
    signal?: AbortSignal,
  ): Promise<Map<string, Float32Array>> {
    const { provider, cache } = this.options;
    // Dimensions are part of the key: one model can answer in several sizes (as in core).
    const model = `${provider.model}#${provider.dimensions}`;
    const found = await cache.get(
      provider.id,
      model,
      items.map((i) => i.hash),
    );
    const misses = [...new Map(items.filter((i) => !found.has(i.hash)).map((i) => [i.hash, i])).values()];
    if (misses.length > 0) {
      const texts = misses.map((i) => this.clip(i.content));
      const vectors = await withRetries(
        () => this.callProvider(texts, "document", signal),
        this.options.retry,
        {
          signal,
          onRetry: (error, waitMs) =>
            this.options.logger.debug("embedding request failed; retrying", {
              error: (error as Error).message,
              waitMs: Math.round(waitMs),
            }),
        },
      );
      const fresh = misses.map((item, i) => [item.hash, vectors[i] as Float32Array] as const);
      await cache.put(provider.id, model, fresh);
      for (const [hash, vector] of fresh) found.set(hash, vector);
    }
    return found;
  }

  private maxChars(): number {
    return maxInputChars(this.options.provider, this.options.batchTokens);
  }

  private clip(text: string): string {
    return clipText(text, this.maxChars());
  }

  private callProvider(texts: string[], purpose: "query" | "document", signal?: AbortSignal) {
    return requestEmbeddings(this.options.provider, texts, purpose, this.options.timeoutMs, signal);
  }
}
