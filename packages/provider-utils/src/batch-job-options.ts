// The checks every vendor batch job makes before it sends anything.
import type { EmbeddingBatchJobOptions } from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";

/** How often a batch job is polled unless `pollIntervalMs` says otherwise. */
export const DEFAULT_POLL_INTERVAL_MS = 30_000;

/** What one vendor's batch jobs accept. */
export interface BatchJobLimits {
  /** Most texts one job takes. */
  maxTextsPerJob: number;
  /** What a `resumeJobId` must look like (OpenAI: any non-empty id; Gemini: `batches/{id}`). */
  jobIdPattern: RegExp;
  /** Said in the INVALID_INPUT error for a malformed `resumeJobId`, e.g. "a batch name (batches/{id})". */
  jobIdDescription: string;
}

/**
 * The poll interval to use; throws INVALID_INPUT for too many texts, a bad interval or job id, and
 * rejects with a signal's reason when one is already aborted. Call only for a non-empty `texts`.
 */
export function checkBatchJobOptions(
  count: number,
  options: EmbeddingBatchJobOptions,
  limits: BatchJobLimits,
): number {
  if (count > limits.maxTextsPerJob) {
    throw MemoryError.invalidInput("texts", `at most ${limits.maxTextsPerJob} per batch job, got ${count}`);
  }
  const pollMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
  if (!(Number.isFinite(pollMs) && pollMs > 0)) {
    throw MemoryError.invalidInput("pollIntervalMs", `must be a positive number, got ${pollMs}`);
  }
  const { resumeJobId } = options;
  if (
    resumeJobId !== undefined &&
    !(typeof resumeJobId === "string" && limits.jobIdPattern.test(resumeJobId))
  ) {
    throw MemoryError.invalidInput(
      "resumeJobId",
      `must be ${limits.jobIdDescription}, got ${JSON.stringify(resumeJobId)}`,
    );
  }
  options.signal?.throwIfAborted();
  options.detachSignal?.throwIfAborted();
  return pollMs;
}
