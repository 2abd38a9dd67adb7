// Large backfills through the provider's vendor batch API (OpenAI Batch, Gemini batch mode): slower
// than normal requests, cheaper, and never the reason a backfill fails.
import { createHash } from "node:crypto";
import type { EmbeddingBatchJobs, EmbedJob, Logger } from "@claw/memory-api";
import { isMemoryError, MemoryError } from "@claw/memory-api";
import type { Database } from "better-sqlite3";
import type { MemorySettings } from "../../config/config-schema.js";
import type { EmbeddingWorker } from "../../embedding/embedding-worker.js";
import { raceAbort } from "../../embedding/race-abort.js";
import { createMetaStore, type MetaStore } from "../schema/meta-store.js";
import type { StatementCache } from "../schema/statement-cache.js";

/** `meta` keys: consecutive failed jobs (absent = none) and the last failure's message. */
export const BATCH_API_FAILURES_KEY = "batch_api_failures";
export const BATCH_API_LAST_ERROR_KEY = "batch_api_last_error";
/** `meta` key: the job running when the memory closed (`{ jobId, digest }`), waited for again on the next backfill. */
export const BATCH_API_PENDING_JOB_KEY = "batch_api_pending_job";

interface PendingJob {
  jobId: string;
  /** Of the provider and the texts the job was submitted for (jobDigest). */
  digest: string;
}

export type ProgressCallback = (done: number, total: number) => void;

/** The normal request path: embeds whatever still lacks a vector, reporting its own progress. */
export type NormalBackfill = (onProgress?: ProgressCallback) => Promise<number>;

export interface BatchBackfillOptions {
  db: Database;
  statements: StatementCache;
  worker: EmbeddingWorker | null;
  settings: MemorySettings;
  logger: Logger;
  /** Adds a line to status().warnings. */
  addWarning: (warning: string) => void;
}

/** A failure of the vendor's job (as opposed to the store's), which the normal path makes up for. */
class JobFailure extends Error {
  constructor(readonly error: unknown) {
    super((error as Error)?.message ?? String(error));
  }
}

/** null when batch jobs cannot apply: no provider, no batch API, or `embedding_batch_api` off. */
export function createBatchBackfill(options: BatchBackfillOptions): BatchBackfill | null {
  const { worker, settings } = options;
  const jobs = worker?.provider.batchJobs;
  if (!settings.embeddingBatchApi || worker === null || jobs === undefined) return null;
  return new BatchBackfill(options, worker, jobs);
}

/**
 * Embeds the entries missing a vector through batch jobs when at least `embedding_batch_api_min_entries`
 * miss one: in rowid order, at most `maxTextsPerJob` / `maxCharsPerJob` per job, cache hits never sent,
 * each job's vectors committed in one transaction under the content-hash guard. A failed job is
 * counted in `meta`; the entries it did not embed go through the normal path in the same call, and
 * after `embedding_batch_api_max_failures` consecutive failures the batch path stays off.
 */
export class BatchBackfill {
  private readonly meta: MetaStore;
  private readonly closed = new AbortController();

  constructor(
    private readonly options: BatchBackfillOptions,
    private readonly worker: EmbeddingWorker,
    private readonly jobs: EmbeddingBatchJobs,
  ) {
    this.meta = createMetaStore(options.db);
    const disabled = this.disabledReason();
    if (disabled !== undefined) {
      options.addWarning(disabled);
      options.logger.info(disabled);
    }
  }

  /** Stops a running job's polling (the memory is closing); the backfill rejects with UNAVAILABLE. */
  abort(): void {
    this.closed.abort(new MemoryError("UNAVAILABLE", "the memory was closed during an embedding batch job"));
  }

  /** Batch jobs when they apply, then `normal` for whatever is still missing; returns vectors written. */
  async backfill(normal: NormalBackfill, onProgress?: ProgressCallback): Promise<number> {
    const total = this.countMissing();
    if (total < this.options.settings.embeddingBatchApiMinEntries || this.disabledReason() !== undefined) {
      return normal(onProgress);
    }
    let done = 0;
    let written = 0;
    try {
      for (let after = 0; ; ) {
        const page = this.nextPage(after);
        if (page.length === 0) break;
        const result = await this.worker.embedWith(page, (texts) => this.runJob(texts));
        // A page the cache answered whole ran no job: it proves nothing about the batch API.
        if (result.sent > 0) this.recordSuccess();
        written += result.written;
        done += page.length;
        after = (page[page.length - 1] as EmbedJob).rid;
        onProgress?.(Math.min(done, total), total);
      }
    } catch (error) {
      if (!(error instanceof JobFailure)) throw error;
      this.recordFailure(error.error);
    }
    const shifted = onProgress && ((d: number, t: number) => onProgress(done + d, done + t));
    return written + (await normal(shifted));
  }

  private runJob = async (texts: string[]): Promise<Float32Array[]> => {
    const { settings, logger } = this.options;
    const provider = this.worker.provider;
    const timeout = AbortSignal.timeout(settings.embeddingBatchApiTimeoutMs);
    const signal = AbortSignal.any([this.closed.signal, timeout]);
    const digest = jobDigest(provider, texts);
    const pending = this.pendingJob();
    let resumeJobId: string | undefined;
    if (pending !== undefined && pending.digest === digest) resumeJobId = pending.jobId;
    else if (pending !== undefined) await this.dropStaleJob(pending.jobId);
    let vectors: Float32Array[] | undefined;
    while (vectors === undefined) {
      if (resumeJobId === undefined) {
        logger.info("embedding batch job submitted", { provider: provider.id, texts: texts.length });
      } else {
        logger.info("embedding batch job resumed", {
          provider: provider.id,
          texts: texts.length,
          jobId: resumeJobId,
        });
      }
      try {
        vectors = await raceAbort(
          this.jobs.embedInBatchJob(texts, {
            purpose: "document",
            // A timeout cancels the vendor's job; closing the memory only stops waiting, and the job
            // is waited for again (not submitted again) by the next backfill.
            signal: timeout,
            detachSignal: this.closed.signal,
            pollIntervalMs: settings.embeddingBatchApiPollMs,
            onStatus: (status) => logger.debug("embedding batch job status", { status }),
            onSubmitted: (jobId) =>
              this.meta.set(BATCH_API_PENDING_JOB_KEY, JSON.stringify({ jobId, digest })),
            ...(resumeJobId === undefined ? {} : { resumeJobId }),
          }),
          signal,
        );
      } catch (error) {
        if (this.closed.signal.aborted) throw this.closed.signal.reason;
        this.meta.delete(BATCH_API_PENDING_JOB_KEY);
        // The vendor no longer knows the job (deleted, or expired long ago): submit it afresh.
        if (resumeJobId !== undefined && isMemoryError(error, "NOT_FOUND")) {
          logger.info("embedding batch job to resume is gone; submitting a new one", { jobId: resumeJobId });
          resumeJobId = undefined;
          continue;
        }
        if (timeout.aborted) {
          const ms = settings.embeddingBatchApiTimeoutMs;
          throw new JobFailure(
            new MemoryError("TIMEOUT", `embedding batch job did not finish within ${ms} ms`, {
              cause: error,
            }),
          );
        }
        throw new JobFailure(error);
      }
    }
    // The job may end as the memory closes: nothing more is written then (the next backfill resumes it).
    if (this.closed.signal.aborted) throw this.closed.signal.reason;
    this.meta.delete(BATCH_API_PENDING_JOB_KEY);
    const wrong = vectors.findIndex((v) => !(v instanceof Float32Array) || v.length !== provider.dimensions);
    if (vectors.length !== texts.length || wrong !== -1) {
      const detail =
        wrong === -1
          ? `${vectors.length} vectors for ${texts.length} texts`
          : `vector ${wrong} without ${provider.dimensions} dimensions`;
      throw new JobFailure(
        new MemoryError("PROVIDER", `embedding batch job of ${provider.id} returned ${detail}`),
      );
    }
    logger.info("embedding batch job finished", { provider: provider.id, texts: texts.length });
    return vectors;
  };

  /** The job left running when the memory last closed, if any. */
  private pendingJob(): PendingJob | undefined {
    const raw = this.meta.get(BATCH_API_PENDING_JOB_KEY);
    if (raw === undefined) return undefined;
    try {
      const pending = JSON.parse(raw) as Partial<PendingJob>;
      if (typeof pending.jobId === "string" && typeof pending.digest === "string") {
        return { jobId: pending.jobId, digest: pending.digest };
      }
    } catch {
      // unreadable: forgotten below
    }
    this.meta.delete(BATCH_API_PENDING_JOB_KEY);
    return undefined;
  }

  /**
   * A job left running for texts that changed since (entries edited or deleted meanwhile) cannot be
   * used: it is cancelled (best effort, when the provider can) and forgotten.
   */
  private async dropStaleJob(jobId: string): Promise<void> {
    this.options.logger.info(
      "an embedding batch job left running no longer matches the entries; cancelling it",
      {
        jobId,
      },
    );
    this.meta.delete(BATCH_API_PENDING_JOB_KEY);
    // Cancelling is a courtesy to the vendor: the job's results are not used either way.
    await this.jobs.cancelJob?.(jobId).catch(() => undefined);
  }

  /** The next rows without a vector after `after`, within one job's limits (at least one row). */
  private nextPage(after: number): EmbedJob[] {
    const maxTexts = Math.max(1, this.jobs.maxTextsPerJob ?? 10_000);
    const maxChars = this.jobs.maxCharsPerJob ?? Number.POSITIVE_INFINITY;
    const rows = this.options.statements
      .get(
        "SELECT rid, namespace, content_hash AS hash, content FROM memories WHERE embedding IS NULL AND rid > ? ORDER BY rid LIMIT ?",
      )
      .all(after, maxTexts) as EmbedJob[];
    let chars = 0;
    for (const [index, row] of rows.entries()) {
      chars += row.content.length;
      if (chars > maxChars && index > 0) return rows.slice(0, index);
    }
    return rows;
  }

  private countMissing(): number {
    return (
      this.options.statements.get("SELECT count(*) AS n FROM memories WHERE embedding IS NULL").get() as {
        n: number;
      }
    ).n;
  }

  private failures(): number {
    const value = Number(this.meta.get(BATCH_API_FAILURES_KEY) ?? 0);
    return Number.isInteger(value) && value > 0 ? value : 0;
  }

  /** Why the batch path is off, when too many jobs failed in a row. */
  private disabledReason(): string | undefined {
    const failures = this.failures();
    if (failures < this.options.settings.embeddingBatchApiMaxFailures) return undefined;
    const last = this.meta.get(BATCH_API_LAST_ERROR_KEY);
    return (
      `embedding batch API disabled after ${failures} consecutive failed jobs` +
      `${last === undefined ? "" : ` (last: ${last})`}; backfill uses normal embedding requests ` +
      "(raise embedding_batch_api_max_failures to try it again)"
    );
  }

  private recordSuccess(): void {
    this.meta.delete(BATCH_API_FAILURES_KEY);
    this.meta.delete(BATCH_API_LAST_ERROR_KEY);
  }

  private recordFailure(error: unknown): void {
    const failures = this.failures() + 1;
    const message = isMemoryError(error) ? `${error.code}: ${error.message}` : String(error);
    this.options.db
      .transaction(() => {
        this.meta.set(BATCH_API_FAILURES_KEY, String(failures));
        this.meta.set(BATCH_API_LAST_ERROR_KEY, message.slice(0, 500));
      })
      .immediate();
    const disabled = this.disabledReason();
    if (disabled === undefined) {
      this.options.logger.info("embedding batch job failed; the remaining entries use normal requests", {
        error: message,
        failures,
      });
      return;
    }
    this.options.logger.warn(disabled, { error: message, failures });
    this.options.addWarning(disabled);
  }
}

/** Identifies a job's input: the provider, model and dimensions, and every text in order. */
function jobDigest(
  provider: { id: string; model: string; dimensions: number },
  texts: readonly string[],
): string {
  const hash = createHash("sha256").update(
    `${provider.id}\u0000${provider.model}\u0000${provider.dimensions}`,
  );
  for (const text of texts) hash.update(`\u0000${text.length}\u0000`).update(text, "utf8");
  return hash.digest("hex");
}
