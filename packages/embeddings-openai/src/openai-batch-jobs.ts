// OpenAI's Batch API for embeddings: one JSONL upload, one batch, status polls, one output download.
// A job can be detached from (left running) and waited for again by its batch id. The poll loop,
// signals and resume are provider-utils' runBatchJob; this file holds the OpenAI requests.
import type { EmbeddingBatchJobs } from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";
import { type BatchJobVendor, createBatchJobs, notFoundOn404 } from "@claw/provider-utils";
import type OpenAI from "openai";
import { toFile } from "openai";
import { type Call, collectVectors, FILE_TIMEOUT_MS, type RequestLine } from "./openai-batch-output.js";
import type { OpenAIConnection } from "./openai-connection.js";
import { toMemoryError } from "./openai-error.js";

/**
 * Texts per job. OpenAI takes up to 50 000 embedding inputs per batch; 10 000 keeps one job's
 * output (base64 vectors) and its Float32Arrays to tens of megabytes in this process.
 */
export const MAX_TEXTS_PER_JOB = 10_000;
/** The input file may hold 200 MB: 50 M characters stay below it even at 3 UTF-8 bytes each. */
export const MAX_CHARS_PER_JOB = 50_000_000;
/** Inputs per request line (the /v1/embeddings limit) and characters per line (~300 k tokens a request). */
const MAX_TEXTS_PER_LINE = 2048;
const MAX_CHARS_PER_LINE = 250_000;
/** A cancel sent when the caller aborts should not hold it up for long. */
const CANCEL_TIMEOUT_MS = 10_000;

const TERMINAL = new Set<string>(["completed", "failed", "expired", "cancelled"]);

export interface OpenAIBatchJobsContext {
  connection: OpenAIConnection;
  model: string;
  dimensions: number;
  sendDimensions: boolean;
  /** e.g. "openai embeddings (text-embedding-3-small)". */
  label: string;
}

export function createOpenAIBatchJobs(context: OpenAIBatchJobsContext): EmbeddingBatchJobs {
  return createBatchJobs(openAIBatchVendor(context));
}

function openAIBatchVendor(context: OpenAIBatchJobsContext): BatchJobVendor<OpenAI.Batch, Float32Array> {
  return {
    maxTextsPerJob: MAX_TEXTS_PER_JOB,
    maxCharsPerJob: MAX_CHARS_PER_JOB,
    jobIdPattern: /^.+$/s,
    jobIdDescription: "a non-empty batch id",
    submit: (texts, _options, { signal, stop }) => submit(context, texts, signal, stop),
    jobId: (batch) => batch.id,
    resume: (batchId, stop) => resume(context, batchId, stop),
    getJob: (batchId, stop) =>
      caller(context, stop)((client) => client.batches.retrieve(batchId, { signal: stop })),
    status: (batch) => batch.status,
    isDone: (batch) => TERMINAL.has(batch.status),
    collect: (batch, texts) => collect(context, batch, texts),
    // Aborted, or polling gave up: the job would otherwise run on, and be billed, for nothing.
    cancel: async (batchId, batch) => {
      await cancel(context, batchId);
      if (batch !== undefined) await deleteFiles(context, [batch.input_file_id]);
    },
    cancelJob: (batchId) => cancelJob(context, batchId),
  };
}

/** A batch left running earlier: cancelled, and its input file deleted. */
async function cancelJob(context: OpenAIBatchJobsContext, batchId: string): Promise<void> {
  if (typeof batchId !== "string" || batchId.length === 0) return;
  let inputFileId: string | undefined;
  try {
    const { client } = context.connection.open();
    const batch = await client.batches.retrieve(batchId, { timeout: CANCEL_TIMEOUT_MS, maxRetries: 0 });
    // Another kind of batch is not ours to touch.
    if (batch.endpoint !== "/v1/embeddings") return;
    inputFileId = batch.input_file_id;
  } catch {
    return; // unknown, or unreachable: nothing to do
  }
  await cancel(context, batchId);
  await deleteFiles(context, [inputFileId]);
}

/** Uploads the input file and creates the batch; the file is deleted again when that fails. */
async function submit(
  context: OpenAIBatchJobsContext,
  texts: readonly string[],
  signal: AbortSignal | undefined,
  stop: AbortSignal | undefined,
): Promise<OpenAI.Batch> {
  const call = caller(context, stop);
  const jsonl = splitIntoLines(texts)
    .map((line) => `${JSON.stringify(requestLine(context, texts, line))}\n`)
    .join("");
  const upload = await toFile(Buffer.from(jsonl, "utf8"), "claw-memory-embeddings.jsonl", {
    type: "application/jsonl",
  });
  const file = await call((client) =>
    client.files.create({ file: upload, purpose: "batch" }, { signal: stop, timeout: FILE_TIMEOUT_MS }),
  );
  try {
    // Only the caller's `signal` stops the create (see BatchJobVendor.submit).
    return await call((client) =>
      client.batches.create(
        { input_file_id: file.id, endpoint: "/v1/embeddings", completion_window: "24h" },
        { signal },
      ),
    );
  } catch (error) {
    await deleteFiles(context, [file.id]);
    throw error;
  }
}

/**
 * The batch a `resumeJobId` names, as it is now: NOT_FOUND when OpenAI does not know it, INVALID_INPUT
 * when it is no embeddings batch (its files are not ours to delete). Other failures reject as any
 * request does (retryable ones may be resumed again).
 */
async function resume(
  context: OpenAIBatchJobsContext,
  batchId: string,
  stop: AbortSignal | undefined,
): Promise<OpenAI.Batch> {
  let batch: OpenAI.Batch;
  try {
    batch = await caller(context, stop)((client) => client.batches.retrieve(batchId, { signal: stop }));
  } catch (error) {
    throw notFoundOn404(error, `${context.label}: no batch ${batchId} to resume`);
  }
  if (batch.endpoint !== "/v1/embeddings") {
    throw MemoryError.invalidInput(
      "resumeJobId",
      `batch ${batchId} runs ${batch.endpoint}, not /v1/embeddings`,
    );
  }
  return batch;
}

/** The vectors of an ended batch (or the error its end calls for); its files are deleted either way. */
async function collect(
  context: OpenAIBatchJobsContext,
  batch: OpenAI.Batch,
  texts: readonly string[],
): Promise<Float32Array[]> {
  try {
    const lines = splitIntoLines(texts);
    return await collectVectors(batch, { ...context, count: texts.length, lines, call: caller(context) });
  } finally {
    await deleteFiles(context, [batch.input_file_id, batch.output_file_id, batch.error_file_id]);
  }
}

/** Splits the texts into request lines by the endpoint's count limit and a size budget. */
function splitIntoLines(texts: readonly string[]): RequestLine[] {
  const lines: RequestLine[] = [];
  let start = 0;
  let chars = 0;
  for (const [index, text] of texts.entries()) {
    const count = index - start;
    if (count > 0 && (count >= MAX_TEXTS_PER_LINE || chars + text.length > MAX_CHARS_PER_LINE)) {
      lines.push({ customId: `texts-${start}-${index}`, start, count });
      start = index;
      chars = 0;
    }
    chars += text.length;
  }
  lines.push({ customId: `texts-${start}-${texts.length}`, start, count: texts.length - start });
  return lines;
}

function requestLine(context: OpenAIBatchJobsContext, texts: readonly string[], line: RequestLine) {
  return {
    custom_id: line.customId,
    method: "POST",
    url: "/v1/embeddings",
    body: {
      model: context.model,
      input: texts.slice(line.start, line.start + line.count),
      // base64 is a quarter the size of decimal floats in the output file.
      encoding_format: "base64",
      ...(context.sendDimensions ? { dimensions: context.dimensions } : {}),
    },
  };
}

/** Requests through a client with the key as it is now; failures come out as MemoryErrors. */
function caller(context: OpenAIBatchJobsContext, signal?: AbortSignal): Call {
  return async (request) => {
    const { client, apiKey } = context.connection.open();
    try {
      return await request(client);
    } catch (error) {
      throw toMemoryError(error, { label: context.label, apiKey, signal });
    }
  };
}

/** Best effort, without the caller's (possibly aborted) signal. */
async function cancel(context: OpenAIBatchJobsContext, batchId: string): Promise<void> {
  try {
    const { client } = context.connection.open();
    await client.batches.cancel(batchId, { timeout: CANCEL_TIMEOUT_MS, maxRetries: 0 });
  } catch {
    // Already finished, or unreachable: nothing more can be done.
  }
}

/** Input and output files are not needed after the job; they would count against the org's storage. */
async function deleteFiles(
  context: OpenAIBatchJobsContext,
  ids: ReadonlyArray<string | null | undefined>,
): Promise<void> {
  for (const id of ids) {
    if (!id) continue;
    try {
      const { client } = context.connection.open();
      await client.files.delete(id, { timeout: CANCEL_TIMEOUT_MS, maxRetries: 0 });
    } catch {
      // Best effort: a leftover file costs storage, not correctness.
    }
  }
}
