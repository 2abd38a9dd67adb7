// The `batchJobs` a provider offers: an EmbeddingBatchJobs over a vendor's requests, and the
// `batchApi` setting that turns it on or off.
import type { EmbeddingBatchJobs } from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";
import { type BatchJobVendor, runBatchJob } from "./poll-batch-job.js";

/** EmbeddingBatchJobs for a vendor: runBatchJob for each job, the vendor's limits and cancelJob. */
export function createBatchJobs<Job>(vendor: BatchJobVendor<Job, Float32Array>): EmbeddingBatchJobs {
  return {
    maxTextsPerJob: vendor.maxTextsPerJob,
    maxCharsPerJob: vendor.maxCharsPerJob,
    embedInBatchJob: (texts, options = {}) => runBatchJob(vendor, texts, options),
    cancelJob: (jobId) => vendor.cancelJob(jobId),
  };
}

/**
 * `{ batchJobs }` to spread into an EmbeddingProvider when the `batchApi` setting (absent: `byDefault`)
 * is on, `{}` when it is off; INVALID_INPUT (field "batchApi") for anything but a boolean. `create`
 * runs only when it is on.
 */
export function batchJobsSetting(
  setting: unknown,
  byDefault: boolean,
  create: () => EmbeddingBatchJobs,
): { batchJobs?: EmbeddingBatchJobs } {
  const on = setting ?? byDefault;
  if (typeof on !== "boolean") {
    throw MemoryError.invalidInput("batchApi", `must be true or false, got ${String(on)}`);
  }
  return on ? { batchJobs: create() } : {};
}
