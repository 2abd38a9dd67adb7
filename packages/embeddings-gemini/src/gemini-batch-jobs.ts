// The Gemini API's batch mode for embeddings (`models/{model}:asyncBatchEmbedContent` with inlined
// requests, then `batches/{id}` polled until a terminal JOB_STATE_*), through @google/genai. The poll
// loop, signals and resume are provider-utils' runBatchJob; this file holds the Gemini requests.
import type { EmbeddingBatchJobOptions, EmbeddingBatchJobs } from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";
import { type BatchJobVendor, createBatchJobs, notFoundOn404 } from "@claw/provider-utils";
import type { BatchJob, CreateEmbeddingsBatchJobParameters, GoogleGenAI } from "@google/genai";
import { collect, isTerminal } from "./gemini-batch-results.js";
import type { GeminiCall } from "./gemini-client.js";

/**
 * Texts per job. Inlined results come back in one `batches.get` answer as decimal JSON (3 072
 * floats each for gemini-embedding-001), so jobs stay small enough to hold in memory.
 */
export const GEMINI_MAX_TEXTS_PER_JOB = 1_000;
/** Inlined requests may total 20 MB: 5 M characters stay below it even at 3 UTF-8 bytes each. */
export const GEMINI_MAX_CHARS_PER_JOB = 5_000_000;

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
  return createBatchJobs(geminiBatchVendor(context));
}

function geminiBatchVendor(context: GeminiBatchJobsContext): BatchJobVendor<BatchJob, Float32Array> {
  return {
    maxTextsPerJob: GEMINI_MAX_TEXTS_PER_JOB,
    maxCharsPerJob: GEMINI_MAX_CHARS_PER_JOB,
    // What `onSubmitted` reports and `resumeJobId` takes: the Gemini API's batch name.
    jobIdPattern: /^batches\/[A-Za-z0-9_.-]+$/,
    jobIdDescription: "a batch name (batches/{id})",
    submit: (texts, options, { signal }) => submit(context, texts, options, signal),
    jobId: (job) => job.name as string,
    getJob: (name, signal) => getJob(context, name, signal),
    status: (job) => job.state,
    isDone: (job) => isTerminal(job.state),
    collect: (job, texts) => collect(context, job, job.name as string, texts.length),
    cancel: (name) => cancel(context, name),
    // Inlined requests leave no files behind: cancelling is all there is to do.
    cancelJob: async (name) => {
      if (typeof name === "string" && name.startsWith("batches/")) await cancel(context, name);
    },
  };
}

async function submit(
  context: GeminiBatchJobsContext,
  texts: readonly string[],
  options: EmbeddingBatchJobOptions,
  signal: AbortSignal | undefined,
): Promise<BatchJob> {
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
  if (created.name === undefined || created.name === "") {
    throw new MemoryError("PROVIDER", "gemini: the batch job was created without a name", {
      retryable: false,
    });
  }
  return created;
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
    throw notFoundOn404(error, `gemini: batch ${name} not found (deleted, or expired)`);
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
