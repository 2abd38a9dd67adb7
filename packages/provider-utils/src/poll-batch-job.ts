// A vendor batch job from submit (or resume) to its results: the poll loop every provider's
// EmbeddingBatchJobs shares, with its signal / detach / resume semantics. The vendor supplies the
// requests (submit, one poll, cancel), how to read a job (id, status, ended) and its results.
import type { EmbeddingBatchJobOptions } from "@claw/memory-api";
import { isMemoryError } from "@claw/memory-api";
import { abortableDelay, anySignal } from "./abortable-delay.js";
import { type BatchJobLimits, checkBatchJobOptions } from "./batch-job-options.js";

/** Polls in a row that may fail (connection, 429, 5xx) before the job is given up. */
export const MAX_POLL_FAILURES = 5;

/** The abort signals a batch job's requests run with. */
export interface BatchJobSignals {
  /** The caller's `signal` only: the request that creates the job must not be cut off by detaching. */
  signal: AbortSignal | undefined;
  /** `signal` or `detachSignal`: for requests before the create (an upload) and for polls. */
  stop: AbortSignal | undefined;
}

/** One vendor's batch API, as runBatchJob drives it: submit, poll, collect the results, cancel. */
export interface BatchJobVendor<Job, Result> extends BatchJobLimits {
  /** Most characters (summed over the texts) one job takes. */
  readonly maxCharsPerJob: number;
  /**
   * Creates the job for `texts`. A job created while its request was cut off could be neither
   * resumed nor cancelled, so the create itself takes only `signals.signal`.
   */
  submit(texts: readonly string[], options: EmbeddingBatchJobOptions, signals: BatchJobSignals): Promise<Job>;
  /** The id `onSubmitted` reports and `resumeJobId` takes. */
  jobId(job: Job): string;
  /** One status request; rejects with a MemoryError (NOT_FOUND when the vendor no longer knows the job). */
  getJob(jobId: string, signal: AbortSignal | undefined): Promise<Job>;
  /**
   * The first look at a resumed job; default `getJob`. Rejects with NOT_FOUND for an unknown job and
   * INVALID_INPUT for one that is not ours; a job never seen is not cancelled.
   */
  resume?(jobId: string, signal: AbortSignal | undefined): Promise<Job>;
  /** The vendor's word for the job's state, reported to `onStatus` when it changes. */
  status(job: Job): string | undefined;
  /** Ended: succeeded, failed, expired or cancelled. */
  isDone(job: Job): boolean;
  /** The results of an ended job in input order, or the MemoryError its end calls for. */
  collect(job: Job, texts: readonly string[]): Promise<Result[]> | Result[];
  /**
   * Best effort, without the caller's (possibly aborted) signal, and never rejects. `job` is the
   * job as last seen, undefined when it never was (aborted while looking up a resumed job).
   */
  cancel(jobId: string, job: Job | undefined): Promise<void>;
  /** EmbeddingBatchJobs.cancelJob: a job submitted earlier, known only by its id. Never rejects. */
  cancelJob(jobId: string): Promise<void>;
}

/**
 * Submits one job for `texts` (or waits for `resumeJobId`), polls until it ends and returns its
 * results. `signal` stops polling, cancels the job and rejects with its reason; `detachSignal`
 * stops polling and leaves the job running, rejecting with its reason. A job whose polling gave up
 * is cancelled too (unless it is gone), so that it does not run on, and get billed, for nothing.
 */
export async function runBatchJob<Job, Result>(
  vendor: BatchJobVendor<Job, Result>,
  texts: readonly string[],
  options: EmbeddingBatchJobOptions = {},
): Promise<Result[]> {
  if (texts.length === 0) return [];
  const pollMs = checkBatchJobOptions(texts.length, options, vendor);
  const { signal, detachSignal, resumeJobId } = options;
  const stop = anySignal(signal, detachSignal);

  const seen: { job: Job | undefined } = { job: undefined };
  let jobId: string;
  if (resumeJobId === undefined) {
    try {
      seen.job = await vendor.submit(texts, options, { signal, stop });
    } catch (error) {
      throw stopReason(options) ?? error;
    }
    jobId = vendor.jobId(seen.job);
    try {
      options.onSubmitted?.(jobId);
    } catch (error) {
      // The caller could not take the id, so the job could never be resumed: it would run on unread.
      await vendor.cancel(jobId, seen.job);
      throw error;
    }
  } else {
    jobId = resumeJobId;
  }

  let done: Job;
  try {
    done = await waitUntilDone(vendor, jobId, seen, pollMs, stop, options.onStatus);
  } catch (error) {
    if (signal?.aborted) {
      await vendor.cancel(jobId, seen.job);
      throw signal.reason;
    }
    // Detached: the job runs on at the vendor, to be resumed.
    if (detachSignal?.aborted) throw detachSignal.reason;
    // Polling gave up on a job we have seen (a resumed job never seen may be looked up again).
    if (seen.job !== undefined && !isMemoryError(error, "NOT_FOUND")) await vendor.cancel(jobId, seen.job);
    throw error;
  }
  return vendor.collect(done, texts);
}

/**
 * Polls until the job ends, keeping the latest answer in `seen`. With a job in hand (just
 * submitted) it waits an interval first; a resumed job is looked at at once.
 */
async function waitUntilDone<Job, Result>(
  vendor: BatchJobVendor<Job, Result>,
  jobId: string,
  seen: { job: Job | undefined },
  pollMs: number,
  stop: AbortSignal | undefined,
  onStatus: ((status: string) => void) | undefined,
): Promise<Job> {
  let reported: string | undefined;
  const report = (job: Job) => {
    const status = vendor.status(job);
    if (status !== undefined && status !== reported) {
      reported = status;
      onStatus?.(status);
    }
  };
  if (seen.job !== undefined) report(seen.job);
  let failedPolls = 0;
  while (seen.job === undefined || !vendor.isDone(seen.job)) {
    if (seen.job !== undefined || failedPolls > 0) await abortableDelay(pollMs, stop);
    try {
      seen.job =
        seen.job === undefined
          ? await (vendor.resume ?? vendor.getJob).call(vendor, jobId, stop)
          : await vendor.getJob(jobId, stop);
      failedPolls = 0;
    } catch (error) {
      // A job runs for hours: one lost poll is no reason to give it up.
      const retryable = isMemoryError(error) && error.retryable;
      if (stop?.aborted || !retryable || ++failedPolls >= MAX_POLL_FAILURES) throw error;
      continue;
    }
    report(seen.job);
  }
  return seen.job;
}

/** The reason of whichever signal stopped the job, if one did. */
function stopReason(options: EmbeddingBatchJobOptions): unknown {
  if (options.signal?.aborted) return options.signal.reason;
  if (options.detachSignal?.aborted) return options.detachSignal.reason;
  return undefined;
}
