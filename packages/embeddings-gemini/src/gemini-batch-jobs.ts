// The Gemini API's batch mode for embeddings (`models/{model}:asyncBatchEmbedContent` with inlined
// requests, then `batches/{id}` polled until a terminal JOB_STATE_*), through @google/genai. A job
// left running by `detachSignal` is waited for again with `resumeJobId` (its `batches/{id}` name).
import type { EmbeddingBatchJobOptions, EmbeddingBatchJobs } from "@claw/memory-api";
import { isMemoryError, MemoryError } from "@claw/memory-api";
import type { BatchJob, CreateEmbeddingsBatchJobParameters, GoogleGenAI } from "@google/genai";
import { ApiError } from "@google/genai";
import { collect, isTerminal } from "./gemini-batch-results.js";
import type { GeminiCall } from "./gemini-client.js";

export const DEFAULT_POLL_INTERVAL_MS = 30_000;
/**
 * Texts per job. Inlined results come back in one `batches.get` answer as decimal JSON (3 072
 * floats each for gemini-embedding-001), so jobs stay small enough to hold in memory.
 */
export const GEMINI_MAX_TEXTS_PER_JOB = 1_000;
/** Inlined requests may total 20 MB: 5 M characters stay below it even at 3 UTF-8 bytes each. */
export const GEMINI_MAX_CHARS_PER_JOB = 5_000_000;
/** Polls in a row that may fail (connection, 429, 5xx) before the job is given up. */
const MAX_POLL_FAILURES = 5;
/** What `onSubmitted` reports and `resumeJobId` takes: the Gemini API's batch name. */
const BATCH_NAME = /^batches\/[A-Za-z0-9_.-]+$/;

export interface GeminiBatchJobsContext {
  call: GeminiCall;
  model: string;
  /** Sent as outputDimensionality when set. */
  requested: number | undefined;
  dimensions: number;
  normalise: boolean;
}

type CreateEmbeddings = (params: CreateEmbeddingsBatchJobParameters) => Promise<BatchJob>;

export function createGeminiBatchJobs(context: GeminiBatchJobsContext): EmbeddingBatchJobs {
  return {
    maxTextsPerJob: GEMINI_MAX_TEXTS_PER_JOB,
    maxCharsPerJob: GEMINI_MAX_CHARS_PER_JOB,
    embedInBatchJob: (texts, options = {}) => runJob(context, texts, options),
    // Inlined requests leave no files behind: cancelling is all there is to do.
    cancelJob: async (jobId) => {
      if (typeof jobId === "string" && jobId.startsWith("batches/")) await cancel(context, jobId);
    },
  };
}

async function runJob(
  context: GeminiBatchJobsContext,
  texts: readonly string[],
  options: EmbeddingBatchJobOptions,
): Promise<Float32Array[]> {
  if (texts.length === 0) return [];
  if (texts.length > GEMINI_MAX_TEXTS_PER_JOB) {
    throw MemoryError.invalidInput(
      "texts",
      `at most ${GEMINI_MAX_TEXTS_PER_JOB} per batch job, got ${texts.length}`,
    );
  }
  const pollMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
  if (!(Number.isFinite(pollMs) && pollMs > 0)) {
    throw MemoryError.invalidInput("pollIntervalMs", `must be a positive number, got ${pollMs}`);
  }
  const { signal, detachSignal, resumeJobId } = options;
  if (resumeJobId !== undefined && !(typeof resumeJobId === "string" && BATCH_NAME.test(resumeJobId))) {
    throw MemoryError.invalidInput("resumeJobId", `must be a batch name (batches/{id}), got ${resumeJobId}`);
  }
  signal?.throwIfAborted();
  detachSignal?.throwIfAborted();

  // A job being submitted is not detached from: its name must reach onSubmitted, or it would run on
  // unknown. A resumed job is asked for at once (no job in hand yet).
  const { name, job: submitted } =
    resumeJobId === undefined ? await submit(context, texts, options) : { name: resumeJobId, job: undefined };
  const stop =
    detachSignal === undefined
      ? signal
      : signal === undefined
        ? detachSignal
        : AbortSignal.any([signal, detachSignal]);
  let job: BatchJob;
  try {
    job = await waitUntilDone(context, name, submitted, pollMs, stop, options.onStatus);
  } catch (error) {
    if (signal?.aborted) {
      await cancel(context, name);
      throw signal.reason;
    }
    // Detached: the job runs on at the vendor, to be resumed.
    if (detachSignal?.aborted) throw detachSignal.reason;
    // Polling gave up: the job would otherwise run on, and be billed, for nothing (unless it is gone).
    if (!isMemoryError(error, "NOT_FOUND")) await cancel(context, name);
    throw error;
  }
  return collect(context, job, name, texts.length);
}

async function submit(
  context: GeminiBatchJobsContext,
  texts: readonly string[],
  options: EmbeddingBatchJobOptions,
): Promise<{ name: string; job: BatchJob }> {
  const { signal } = options;
  const taskType = options.purpose === "query" ? "RETRIEVAL_QUERY" : "RETRIEVAL_DOCUMENT";
  const abort = signal === undefined ? {} : { abortSignal: signal };
  const created = await context.call(signal, (client, httpOptions) =>
    createEmbeddings(client)({
      model: context.model,
      src: {
        inlinedRequests: {
          contents: [...texts],
          config: {
            taskType,
            ...(context.requested === undefined ? {} : { outputDimensionality: context.requested }),
          },
        },
      },
      config: { displayName: "claw-memory embeddings", httpOptions, ...abort },
    }),
  );
  const name = created.name;
  if (name === undefined || name === "") {
    throw new MemoryError("PROVIDER", "gemini: the batch job was created without a name", {
      retryable: false,
    });
  }
  try {
    options.onSubmitted?.(name);
  } catch (error) {
    // The caller could not take the name, so the job could never be resumed: it would run on unread.
    await cancel(context, name);
    throw error;
  }
  return { name, job: created };
}

/**
 * The SDK's public `batches.createEmbeddings()` prints an "experimental" console.warn on every
 * call, and a library must not write to the console: the method it delegates to (same request,
 * same parsing) is used when present.
 */
function createEmbeddings(client: GoogleGenAI): CreateEmbeddings {
  const batches = client.batches as unknown as { createEmbeddingsInternal?: CreateEmbeddings };
  const internal = batches.createEmbeddingsInternal;
  return typeof internal === "function" ? internal.bind(client.batches) : client.batches.createEmbeddings;
}

/** Polls until the job ends; without a `submitted` job in hand (resuming) the first poll is at once. */
async function waitUntilDone(
  context: GeminiBatchJobsContext,
  name: string,
  submitted: BatchJob | undefined,
  pollMs: number,
  signal: AbortSignal | undefined,
  onStatus: ((status: string) => void) | undefined,
): Promise<BatchJob> {
  let job = submitted;
  let reported = job?.state as string | undefined;
  if (reported !== undefined) onStatus?.(reported);
  let failedPolls = 0;
  while (job === undefined || !isTerminal(job.state)) {
    if (job !== undefined || failedPolls > 0) await sleep(pollMs, signal);
    try {
      job = await getJob(context, name, signal);
      failedPolls = 0;
    } catch (error) {
      // A job runs for hours: one lost poll is no reason to give it up.
      const retryable = isMemoryError(error) && error.retryable;
      if (signal?.aborted || !retryable || ++failedPolls >= MAX_POLL_FAILURES) throw error;
      continue;
    }
    if (job.state !== undefined && job.state !== reported) {
      reported = job.state;
      onStatus?.(reported);
    }
  }
  return job;
}

/** `GET batches/{id}`; a 404 (deleted, or expired long ago) is NOT_FOUND. */
async function getJob(
  context: GeminiBatchJobsContext,
  name: string,
  signal: AbortSignal | undefined,
): Promise<BatchJob> {
  const abort = signal === undefined ? {} : { abortSignal: signal };
  try {
    return await context.call(signal, (client, httpOptions) =>
      client.batches.get({ name, config: { httpOptions, ...abort } }),
    );
  } catch (error) {
    if (isMemoryError(error) && error.cause instanceof ApiError && error.cause.status === 404) {
      throw new MemoryError("NOT_FOUND", `gemini: batch ${name} not found (deleted, or expired)`, {
        cause: error,
        retryable: false,
      });
    }
    throw error;
  }
}

/** Best effort, without the caller's (possibly aborted) signal. */
async function cancel(context: GeminiBatchJobsContext, name: string): Promise<void> {
  try {
    await context.call(undefined, (client, httpOptions) =>
      client.batches.cancel({ name, config: { httpOptions } }),
    );
  } catch {
    // Already finished, or unreachable: nothing more can be done.
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
