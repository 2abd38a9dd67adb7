// Document vectors for every backend: the cache first, then the provider in token-bounded batches
// with retries, written under the content-hash guard. Deferred jobs run in the background with
// bounded concurrency. The backend supplies where rows and cached vectors live (VectorRows,
// VectorCache): SQLite reads the rows; PostgreSQL claims them under a lease shared by servers.
import type { EmbeddingProvider, EmbedJob, Logger } from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";
import type { MemorySettings } from "../config/config-schema.js";
import { contentHash } from "../text/content-hash.js";
import { DeferredQueue } from "./deferred-queue.js";
import { clipText, maxInputChars, requestEmbeddings, tokenBudgetBatches } from "./provider-request.js";
import { DEFAULT_RETRY_POLICY, type RetryPolicy, withRetries } from "./retry-policy.js";
import {
  isStorageFull,
  keepWithoutRoom,
  lookupWithoutRoom,
  WaitingForRoom,
  writeWhenRoom,
} from "./room-for-vectors.js";

/** The rows of a store as the worker sees them. */
export interface VectorRows {
  /**
   * Takes rows that still lack a vector, with the content they hold now (which may be newer than
   * a job's): `rids` = these rows only (deferred jobs), null = any with a row id above `afterRid`,
   * in row-id order (backfill). A backend shared by processes claims them under a lease.
   */
  claim(rids: readonly number[] | null, limit: number, afterRid: number): Promise<EmbedJob[]>;
  /**
   * Writes the vectors in one transaction under the content-hash guard: a row whose content changed
   * since it was claimed keeps waiting for its newer job. Returns how many rows received a vector.
   */
  write(jobs: readonly EmbedJob[], vectors: ReadonlyMap<string, Float32Array>): Promise<number>;
  /** Gives claims up after a failure, so another process or a backfill can take the rows at once. */
  release(claimed: readonly EmbedJob[]): Promise<void>;
  /** Rows without a vector. */
  countMissing(): Promise<number>;
  /**
   * The row id after which a missing vector means a lost job (a killed process, a lease run out):
   * rows up to it were there before the current provider and wait for an explicit backfill.
   */
  sweepAfter(): Promise<number>;
}

/** Vectors by content hash, per provider and model. */
export interface VectorCache {
  /** The cached vectors of these content hashes (the ones found). */
  get(
    provider: string,
    model: string,
    hashes: readonly string[],
  ): Map<string, Float32Array> | Promise<Map<string, Float32Array>>;
  /** Caches vectors by content hash. */
  put(
    provider: string,
    model: string,
    entries: ReadonlyArray<readonly [string, Float32Array]>,
  ): void | Promise<void>;
}

/** What an EmbeddingWorker works with: the store's vector rows, the cache, the provider and its limits. */
export interface EmbeddingWorkerOptions {
  rows: VectorRows;
  cache: VectorCache;
  provider: EmbeddingProvider;
  logger: Logger;
  /** Token budget of one provider request (~4 characters a token). */
  batchTokens: number;
  concurrency: number;
  timeoutMs: number;
  /** How failed document requests are retried (queries are not: they degrade to BM25). */
  retry: RetryPolicy;
  /** Called after vectors were written (recall caches must forget results). */
  onWrite: () => void | Promise<void>;
}

/**
 * Embeds entries for a store: batches them to the provider's token budget, reuses cached vectors, retries
 * failed batches, and writes the vectors.
 */
export class EmbeddingWorker {
  private readonly jobs: DeferredQueue<EmbedJob>;
  /** Rows claimed by batches still running, released if close() gives up on them. */
  private readonly claimedInFlight = new Set<readonly EmbedJob[]>();
  /** Deferred jobs whose vectors found no room (room-for-vectors.ts). */
  private readonly parked: WaitingForRoom;
  /** Aborted when close() starts: writes waiting for room stop waiting. */
  private readonly closing = new AbortController();
  lastError: string | undefined;

  constructor(private readonly options: EmbeddingWorkerOptions) {
    this.parked = new WaitingForRoom(options.logger);
    this.jobs = new DeferredQueue<EmbedJob>({
      concurrency: options.concurrency,
      nextBatch: (queued) => this.batches(queued).next().value ?? [],
      run: (batch) => this.embedJobs(batch),
      onError: (error, batch, stopped) => {
        // The store is closing: backfill, or the next process's sweep, embeds these later.
        if (stopped || this.closing.signal.aborted) return;
        this.lastError = (error as Error).message;
        if (isStorageFull(error)) return this.parked.park(batch, this.lastError);
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

  /** Jobs queued or being embedded by this process. */
  get pending(): number {
    return this.jobs.pending;
  }

  /** Entries whose vectors wait for room in the store. */
  get waitingForRoom(): number {
    return this.parked.size;
  }

  /**
   * Queues rows for background embedding (see DeferredQueue for batching and coalescing), with
   * the jobs whose vectors found no room: a write just went through.
   */
  enqueue(jobs: readonly EmbedJob[]): void {
    this.jobs.enqueue([...this.parked.take(), ...jobs]);
  }

  /** Claims and embeds these rows now; returns how many received a vector. */
  async embedNow(jobs: readonly EmbedJob[], signal?: AbortSignal): Promise<number> {
    let written = 0;
    for (const batch of this.batches(jobs)) written += await this.embedJobs(batch, signal);
    return written;
  }

  /** Claims up to `limit` rows lacking a vector after `afterRid` (backfill) and embeds them. */
  async embedMissing(
    limit: number,
    afterRid: number,
  ): Promise<{ claimed: number; written: number; last: number }> {
    const claimed = await this.options.rows.claim(null, limit, afterRid);
    let written = 0;
    const batches = [...this.batches(claimed)];
    for (const [i, batch] of batches.entries()) {
      try {
        written += await this.embedClaimed(batch);
      } catch (error) {
        // The batches not reached are given up too (embedClaimed released its own).
        await this.options.rows.release(batches.slice(i + 1).flat()).catch(() => {
          // The failure that brought us here is the one to report; the lease frees the rows later.
        });
        throw error;
      }
    }
    return { claimed: claimed.length, written, last: claimed.at(-1)?.rid ?? afterRid };
  }

  /**
   * Embeds `jobs` through `compute` instead of the provider's embed() (a vendor batch job): cache
   * hits are not sent, the unique misses go to `compute` in one call, and their vectors are cached,
   * then written with the hits under the content-hash guard.
   * Returns how many rows received a vector and how many texts were sent.
   */
  async embedWith(
    jobs: readonly EmbedJob[],
    compute: (texts: string[]) => Promise<Float32Array[]>,
  ): Promise<{ written: number; sent: number }> {
    const model = this.cacheModel();
    const vectors = await this.cacheGet(
      model,
      jobs.map((j) => j.hash),
    );
    const misses = unique(jobs.filter((j) => !vectors.has(j.hash)));
    if (misses.length > 0) {
      // `compute` checks what it returns: one vector of the provider's size per text.
      const fresh = await compute(misses.map((j) => this.clip(j.content)));
      const entries = misses.map((j, i) => [j.hash, fresh[i] as Float32Array] as const);
      await this.cachePut(model, entries);
      for (const [hash, vector] of entries) vectors.set(hash, vector);
    }
    return { written: await this.write(jobs, vectors), sent: misses.length };
  }

  /**
   * The vector of one query text, clipped to the provider's input limit. Throws PROVIDER when none comes
   * back.
   */
  async embedQuery(text: string, signal?: AbortSignal): Promise<Float32Array> {
    const [vector] = await this.callProvider([this.clip(text)], "query", signal);
    if (vector === undefined) throw new MemoryError("PROVIDER", "the embedding provider returned no vector");
    return vector;
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
      const clipped = texts.map((t) => this.clip(t));
      return withRetries(() => this.callProvider(clipped, purpose, signal), this.options.retry, { signal });
    }
    const items = texts.map((content) => ({ hash: contentHash(content), content }));
    const vectors = await this.cachedVectors(items, signal);
    return items.map((item) => vectors.get(item.hash) as Float32Array);
  }

  /**
   * Resolves when no deferred job of this process is queued or running. Jobs whose vectors found
   * no room are tried again first; if the store is still full they wait again once the retries of
   * `retry` run out, and flush() resolves with their entries still missing a vector.
   */
  flush(): Promise<void> {
    const parked = this.parked.take();
    if (parked.length > 0) this.jobs.enqueue(parked);
    return this.jobs.flush();
  }

  /** Stops taking jobs and waits up to `timeoutMs` for running ones; true when everything finished. */
  async close(timeoutMs: number): Promise<boolean> {
    this.closing.abort();
    const parked = this.parked.take();
    if (parked.length > 0) {
      this.options.logger.warn(
        "closing with entries whose vectors found no room; backfill embeds them later",
        {
          entries: parked.length,
        },
      );
    }
    const finished = await this.jobs.drain(timeoutMs);
    if (!finished) {
      this.options.logger.warn("closing with embeddings still pending; backfill will embed them later", {
        pending: this.pending,
      });
      // Another process (or the next start) may take these rows now rather than after the lease.
      const claimed = [...this.claimedInFlight].flat();
      await this.options.rows.release(claimed).catch(() => {
        // The store may be gone already: the lease then frees the rows when it runs out.
      });
    }
    this.jobs.stop();
    return finished;
  }

  private batches<T extends { content: string }>(jobs: readonly T[]): Generator<T[]> {
    return tokenBudgetBatches(jobs, {
      maxCount: this.options.provider.maxBatchSize ?? 64,
      batchTokens: this.options.batchTokens,
      maxChars: this.maxChars(),
    });
  }

  private async embedJobs(batch: readonly EmbedJob[], signal?: AbortSignal): Promise<number> {
    const rids = batch.map((j) => j.rid);
    const claimed = await this.options.rows.claim(rids, rids.length, 0);
    return this.embedClaimed(claimed, signal);
  }

  private async embedClaimed(claimed: readonly EmbedJob[], signal?: AbortSignal): Promise<number> {
    if (claimed.length === 0) return 0;
    let written: number;
    this.claimedInFlight.add(claimed);
    try {
      const vectors = await this.cachedVectors(claimed, signal);
      const stop =
        signal === undefined ? this.closing.signal : AbortSignal.any([signal, this.closing.signal]);
      // Once a batch has waited for room in vain, the others try once: flush() stays short.
      const retry = this.parked.size > 0 ? { ...this.options.retry, maxRetries: 0 } : this.options.retry;
      written = await writeWhenRoom(() => this.write(claimed, vectors), retry, this.options.logger, stop);
    } catch (error) {
      await this.options.rows.release(claimed).catch(() => {
        // The failure that brought us here is the one to report; the lease frees the rows later.
      });
      throw error;
    } finally {
      this.claimedInFlight.delete(claimed);
    }
    this.lastError = undefined; // the provider answers again: no longer a reason to report
    this.parked.roomFound();
    return written;
  }

  private async write(
    jobs: readonly EmbedJob[],
    vectors: ReadonlyMap<string, Float32Array>,
  ): Promise<number> {
    const written = await this.options.rows.write(jobs, vectors);
    if (written > 0) await this.options.onWrite();
    return written;
  }

  private async cachedVectors(
    items: readonly { hash: string; content: string }[],
    signal?: AbortSignal,
  ): Promise<Map<string, Float32Array>> {
    const model = this.cacheModel();
    const found = await this.cacheGet(
      model,
      items.map((i) => i.hash),
    );
    const misses = unique(items.filter((i) => !found.has(i.hash)));
    // Many texts (an import embedded before it is written) go out in token-bounded batches,
    // `concurrency` requests at a time; a worker's own batch is one request.
    const batches = [...this.batches(misses)];
    const concurrency = Math.max(1, this.options.concurrency);
    for (let i = 0; i < batches.length; i += concurrency) {
      const wave = batches.slice(i, i + concurrency).map(async (batch) => {
        const texts = batch.map((item) => this.clip(item.content));
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
        const fresh = batch.map((item, j) => [item.hash, vectors[j] as Float32Array] as const);
        await this.cachePut(model, fresh);
        for (const [hash, vector] of fresh) found.set(hash, vector);
      });
      await Promise.all(wave);
    }
    return found;
  }

  /** Cached vectors by hash; none when the store is full. */
  private cacheGet(model: string, hashes: readonly string[]): Promise<Map<string, Float32Array>> {
    const { cache, provider } = this.options;
    return lookupWithoutRoom(
      () => cache.get(provider.id, model, hashes),
      () => new Map(),
    );
  }

  /** Caches vectors, unless the store is full. */
  private cachePut(model: string, entries: ReadonlyArray<readonly [string, Float32Array]>): Promise<void> {
    const { cache, provider } = this.options;
    return keepWithoutRoom(() => cache.put(provider.id, model, entries), this.options.logger);
  }

  /** Dimensions are part of the cache key: one model can answer in several sizes. */
  private cacheModel(): string {
    return `${this.options.provider.model}#${this.options.provider.dimensions}`;
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

/** One item per content hash (the first). */
function unique<T extends { hash: string }>(items: readonly T[]): T[] {
  return [...new Map(items.map((item) => [item.hash, item])).values()];
}

/** The worker's batching, concurrency, timeout and retry settings from the `[memory]` settings. */
export function workerSettingsOf(
  settings: MemorySettings,
): Pick<EmbeddingWorkerOptions, "batchTokens" | "concurrency" | "timeoutMs" | "retry"> {
  return {
    batchTokens: settings.embeddingBatchTokens,
    concurrency: settings.embeddingConcurrency,
    timeoutMs: settings.embeddingTimeoutMs,
    retry: {
      ...DEFAULT_RETRY_POLICY,
      maxRetries: settings.embeddingMaxRetries,
      deadlineMs: settings.embeddingRetryDeadlineMs,
    },
  };
}
