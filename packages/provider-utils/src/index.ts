// @claw/provider-utils: what every claw-memory provider package needs, written once. Test helpers
// live apart, in "@claw/provider-utils/test-server".
export { abortableDelay, anySignal } from "./abortable-delay.js";
export { type BatchJobLimits, checkBatchJobOptions, DEFAULT_POLL_INTERVAL_MS } from "./batch-job-options.js";
export { batchJobsSetting, createBatchJobs } from "./embedding-batch-jobs.js";
export {
  classifyFailure,
  type FailureClass,
  httpStatusOf,
  notFoundOn404,
  type ProviderErrorOptions,
  type ProviderFailure,
  providerError,
} from "./http-status-error.js";
export {
  type BatchJobSignals,
  type BatchJobVendor,
  MAX_POLL_FAILURES,
  runBatchJob,
} from "./poll-batch-job.js";
export {
  REDACTED,
  type Redaction,
  redactCause,
  redactSecrets,
  type SecretPattern,
} from "./redact-secrets.js";
export { type HeaderReader, parseRetryAfter, parseRetryAfterValue } from "./retry-after.js";
