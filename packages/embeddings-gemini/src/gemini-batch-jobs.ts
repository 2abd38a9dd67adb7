// The Gemini API's batch mode for embeddings (`models/{model}:asyncBatchEmbedContent` with inlined
// requests, then `batches/{id}` polled until a terminal JOB_STATE_*), through @google/genai.
import type { EmbeddingBatchJobOptions, EmbeddingBatchJobs } from "@claw/memory-api";
import { isMemoryError, MemoryError } from "@claw/memory-api";
import type { BatchJob, CreateEmbeddingsBatchJobParameters, GoogleGenAI, JobError } from "@google/genai";
import type { GeminiCall } from "./gemini-client.js";
import { toVector } from "./gemini-vectors.js";

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

const FAILED_STATES: Record<string, { code: "PROVIDER" | "TIMEOUT"; what: string }> = {
  JOB_STATE_FAILED: { code: "PROVIDER", what: "failed" },
  JOB_STATE_CANCELLED: { code: "PROVIDER", what: "was cancelled" },
  JOB_STATE_EXPIRED: { code: "TIMEOUT", what: "expired before it completed" },
};
const DONE_STATES = new Set(["JOB_STATE_SUCCEEDED", "JOB_STATE_PARTIALLY_SUCCEEDED"]);

/** google.rpc codes (and HTTP statuses) of a failed request → MemoryError codes. */
const AUTH_CODES = new Set([7, 16, 401, 403]);
const RATE_CODES = new Set([8, 429]);

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
  const { signal } = options;
  signal?.throwIfAborted();
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

  let job = created;
  try {
    job = await waitUntilDone(context, created, name, pollMs, options);
  } catch (error) {
    // Aborted (or polling gave up): the job would otherwise run on, and be billed, for nothing.
    await cancel(context, name);
    throw error;
  }
  return collect(context, job, name, texts.length);
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

function isTerminal(state: string | undefined): boolean {
  return state !== undefined && (DONE_STATES.has(state) || state in FAILED_STATES);
}

async function waitUntilDone(
  context: GeminiBatchJobsContext,
  created: BatchJob,
  name: string,
  pollMs: number,
  options: EmbeddingBatchJobOptions,
): Promise<BatchJob> {
  const { signal } = options;
  const abort = signal === undefined ? {} : { abortSignal: signal };
  let job = created;
  let reported = job.state as string | undefined;
  if (reported !== undefined) options.onStatus?.(reported);
  let failedPolls = 0;
  while (!isTerminal(job.state)) {
    await sleep(pollMs, signal);
    try {
      job = await context.call(signal, (client, httpOptions) =>
        client.batches.get({ name, config: { httpOptions, ...abort } }),
      );
      failedPolls = 0;
    } catch (error) {
      // A job runs for hours: one lost poll is no reason to give it up.
      const retryable = isMemoryError(error) && error.retryable;
      if (signal?.aborted || !retryable || ++failedPolls >= MAX_POLL_FAILURES) throw error;
      continue;
    }
    if (job.state !== undefined && job.state !== reported) {
      reported = job.state;
      options.onStatus?.(reported);
    }
  }
  return job;
}

function collect(
  context: GeminiBatchJobsContext,
  job: BatchJob,
  name: string,
  count: number,
): Float32Array[] {
  const prefix = `gemini: batch ${name}`;
  const failed = FAILED_STATES[job.state as string];
  if (failed !== undefined) {
    const detail = job.error?.message ? ` (${job.error.message})` : "";
    throw new MemoryError(failed.code, `${prefix} ${failed.what}${detail}`, { retryable: false });
  }
  // The SDK files the answers under inlinedEmbedContentResponses when any holds an embedding,
  // otherwise (every request failed) under inlinedResponses.
  const answers = (job.dest?.inlinedEmbedContentResponses ?? job.dest?.inlinedResponses ?? []) as Array<{
    response?: { embedding?: { values?: number[] } };
    error?: JobError;
  }>;
  if (answers.length !== count) {
    throw new MemoryError("PROVIDER", `${prefix}: expected ${count} answers, got ${answers.length}`, {
      retryable: false,
    });
  }
  const failures = answers.filter((answer) => answer.error);
  const firstError = failures[0]?.error;
  if (firstError !== undefined) {
    const code = firstError.code ?? 0;
    const message = `${prefix}: ${failures.length} of ${count} requests failed (${firstError.message ?? `code ${code}`})`;
    if (AUTH_CODES.has(code)) return fail("PROVIDER_AUTH", message);
    if (RATE_CODES.has(code)) return fail("RATE_LIMITED", message);
    return fail("PROVIDER", message);
  }
  return answers.map((answer, index) =>
    toVector(answer.response?.embedding?.values, index, context.dimensions, context.normalise),
  );
}

function fail(code: "PROVIDER" | "PROVIDER_AUTH" | "RATE_LIMITED", message: string): never {
  throw new MemoryError(code, message, { retryable: false });
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
