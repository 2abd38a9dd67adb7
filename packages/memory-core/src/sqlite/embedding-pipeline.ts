import type { EmbeddingProvider, EmbedJob, Logger } from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";
import type { Database } from "better-sqlite3";
import { DeferredQueue } from "../embedding/deferred-queue.js";
import {
  clipText,
  maxInputChars,
  requestEmbeddings,
  tokenBudgetBatches,
} from "../embedding/provider-request.js";
import { type RetryPolicy, withRetries } from "../embedding/retry-policy.js";
import { float32ToBlob } from "../recall/vector-math.js";
import { contentHash } from "./content-hash.js";
import type { EmbeddingCache } from "./embedding-cache.js";
import type { StatementCache } from "./statement-cache.js";
import type { VectorIndex } from "./vector-index.js";

export type { EmbedJob };

export interface EmbeddingPipelineOptions {
  db: Database;
  statements: StatementCache;
  provider: EmbeddingProvider;
  cache: EmbeddingCache;
  vectors: VectorIndex;
  logger: Logger;
  /** Token budget of one provider request (~4 characters a token). */
  batchTokens: number;
  concurrency: number;
  timeoutMs: number;
  /** How failed document requests are retried (queries are not: they degrade to BM25). */
  retry: RetryPolicy;
  /** Called after vectors were written (the hot cache must forget results). */
  onWrite: () => void;
}

/**
 * Computes document vectors (cache first, then the provider in token-bounded batches) and writes
 * them under the content-hash guard. Deferred jobs run in the background with bounded concurrency;
 * `flush()` waits for them.
 */
export class EmbeddingPipeline {
  private readonly jobs: DeferredQueue<EmbedJob>;
  lastError: string | undefined;

  constructor(private readonly options: EmbeddingPipelineOptions) {
    this.jobs = new DeferredQueue<EmbedJob>({
      concurrency: options.concurrency,
      nextBatch: (queued) => this.batches(queued).next().value ?? [],
      run: (batch) => this.runBatch(batch),
      onError: (error, batch) => {
        this.lastError = (error as Error).message;
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

  /** Jobs queued or being embedded. */
  get pending(): number {
    return this.jobs.pending;
  }

  /** Queues rows for background embedding (see DeferredQueue for batching and coalescing). */
  enqueue(jobs: readonly EmbedJob[]): void {
    this.jobs.enqueue(jobs);
  }

  /** Embeds and writes now; returns how many rows received a vector. */
  async embedDocuments(jobs: readonly EmbedJob[], signal?: AbortSignal): Promise<number> {
    let written = 0;
    for (const batch of this.batches(jobs)) written += await this.runBatch(batch, signal);
    return written;
  }

  /**
   * Embeds `jobs` through `compute` instead of the provider's embed() (a vendor batch job): cache
   * hits are not sent, the unique misses go to `compute` in one call, and their vectors are cached,
   * then written with the hits in one transaction under the content-hash guard.
   * Returns how many rows received a vector and how many texts were sent.
   */
  async embedDocumentsWith(
    jobs: readonly EmbedJob[],
    compute: (texts: string[]) => Promise<Float32Array[]>,
  ): Promise<{ written: number; sent: number }> {
    const { provider, cache } = this.options;
    const model = `${provider.model}#${provider.dimensions}`; // the cache key embedDocuments uses
    const vectors = cache.get(
      provider.id,
      model,
      jobs.map((j) => j.hash),
    );
    const misses = [...new Map(jobs.filter((j) => !vectors.has(j.hash)).map((j) => [j.hash, j])).values()];
    if (misses.length > 0) {
      // `compute` checks what it returns: one vector of the provider's size per text.
      const fresh = await compute(misses.map((j) => this.clip(j.content)));
      const entries = misses.map((j, i) => [j.hash, fresh[i] as Float32Array] as const);
      cache.put(provider.id, model, entries);
      for (const [hash, vector] of entries) vectors.set(hash, vector);
    }
    return { written: this.write(jobs, vectors), sent: misses.length };
  }

  async embedQuery(text: string, signal?: AbortSignal): Promise<Float32Array> {
    const [vector] = await this.callProvider([this.clip(text)], "query", signal);
    if (vector === undefined) throw new MemoryError("PROVIDER", "the embedding provider returned no vector");
    return vector;
  }

  /** Resolves when no deferred job is queued or running. */
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

  private maxChars(): number {
    return maxInputChars(this.options.provider, this.options.batchTokens);
  }

  private clip(text: string): string {
    return clipText(text, this.maxChars());
  }

  /**
   * Vectors for `texts` in order. Documents go through the cache: only texts it does not hold
   * reach the provider (deduplicated, with retries), and their vectors are cached. Queries are
   * not cached, since some providers embed a query differently from the same text as a document.
   */
  async embedTexts(
    texts: readonly string[],
    purpose: "query" | "document",
    signal?: AbortSignal,
  ): Promise<Float32Array[]> {
    if (purpose === "query") {
      return withRetries(
        () =>
          this.callProvider(
            texts.map((t) => this.clip(t)),
            purpose,
            signal,
          ),
        this.options.retry,
        {
          signal,
        },
      );
    }
    const hashes = texts.map((t) => contentHash(t));
    const vectors = await this.cachedVectors(
      texts.map((content, i) => ({ hash: hashes[i] as string, content })),
      purpose,
      signal,
    );
    return hashes.map((h) => vectors.get(h) as Float32Array);
  }

  private async runBatch(batch: readonly EmbedJob[], signal?: AbortSignal): Promise<number> {
    const vectors = await this.cachedVectors(batch, "document", signal);
    const written = this.write(batch, vectors);
    this.lastError = undefined; // the provider answers again: no longer a reason to report
    return written;
  }

  private async cachedVectors(
    items: readonly { hash: string; content: string }[],
    purpose: "query" | "document",
    signal?: AbortSignal,
  ): Promise<Map<string, Float32Array>> {
    const { provider, cache } = this.options;
    // Dimensions are part of the key: one model can answer in several sizes.
    const model = `${provider.model}#${provider.dimensions}`;
    const cached = cache.get(
      provider.id,
      model,
      items.map((j) => j.hash),
    );
    const misses = items.filter((j) => !cached.has(j.hash));
    const uniqueMisses = [...new Map(misses.map((j) => [j.hash, j])).values()];
    if (uniqueMisses.length > 0) {
      const texts = uniqueMisses.map((j) => this.clip(j.content));
      const vectors = await withRetries(() => this.callProvider(texts, purpose, signal), this.options.retry, {
        signal,
        onRetry: (error, waitMs) =>
          this.options.logger.debug("embedding request failed; retrying", {
            error: (error as Error).message,
            waitMs: Math.round(waitMs),
          }),
      });
      const fresh = uniqueMisses.map((j, i) => [j.hash, vectors[i] as Float32Array] as const);
      cache.put(provider.id, model, fresh);
      for (const [hash, vector] of fresh) cached.set(hash, vector);
    }
    return cached;
  }

  private write(batch: readonly EmbedJob[], vectors: Map<string, Float32Array>): number {
    const { db, statements } = this.options;
    const update = statements.get(
      "UPDATE memories SET embedding = ?, embedding_content_hash = ? WHERE rid = ? AND content_hash = ?",
    );
    let written = 0;
    try {
      db.transaction(() => {
        for (const job of batch) {
          const vector = vectors.get(job.hash);
          if (vector === undefined) continue;
          const blob = float32ToBlob(vector);
          // The guard: a row whose content changed since the job was queued keeps waiting for the
          // newer job instead of receiving a vector of text it no longer holds.
          if (update.run(blob, job.hash, job.rid, job.hash).changes === 1) {
            this.options.vectors.upsert(job.rid, job.namespace, blob);
            written++;
          }
        }
      }).immediate();
    } catch (error) {
      // A rolled-back write leaves the in-memory vector codes ahead of the database.
      this.options.vectors.invalidate();
      throw error;
    }
    if (written > 0) this.options.onWrite();
    return written;
  }

  private callProvider(texts: string[], purpose: "query" | "document", signal?: AbortSignal) {
    return requestEmbeddings(this.options.provider, texts, purpose, this.options.timeoutMs, signal);
  }
}
