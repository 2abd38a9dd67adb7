// OpenAI's Batch API for embeddings: one JSONL upload, one batch, status polls, one output download.
// A job can be detached from (left running) and waited for again by its batch id.
import type { EmbeddingBatchJobOptions, EmbeddingBatchJobs } from "@claw/memory-api";
import { isMemoryError, MemoryError } from "@claw/memory-api";
import type OpenAI from "openai";
import { toFile } from "openai";
import { type Call, collectVectors, FILE_TIMEOUT_MS, type RequestLine } from "./openai-batch-output.js";
import type { OpenAIConnection } from "./openai-connection.js";
import { toMemoryError } from "./openai-error.js";

export const DEFAULT_POLL_INTERVAL_MS = 30_000;
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
/** Polls in a row that may fail (connection, 429, 5xx) before the job is given up. */
const MAX_POLL_FAILURES = 5;
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
  return {
    maxTextsPerJob: MAX_TEXTS_PER_JOB,
    maxCharsPerJob: MAX_CHARS_PER_JOB,
    embedInBatchJob: (texts, options = {}) => runJob(context, texts, options),
    cancelJob: (jobId) => cancelJob(context, jobId),
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

async function runJob(
  context: OpenAIBatchJobsContext,
  texts: readonly string[],
  options: EmbeddingBatchJobOptions,
): Promise<Float32Array[]> {
  if (texts.length === 0) return [];
  if (texts.length > MAX_TEXTS_PER_JOB) {
    throw MemoryError.invalidInput(
      "texts",
      `at most ${MAX_TEXTS_PER_JOB} per batch job, got ${texts.length}`,
    );
  }
  const pollMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
  if (!(Number.isFinite(pollMs) && pollMs > 0)) {
    throw MemoryError.invalidInput("pollIntervalMs", `must be a positive number, got ${pollMs}`);
  }
  const { signal, detachSignal, resumeJobId } = options;
  if (resumeJobId !== undefined && (typeof resumeJobId !== "string" || resumeJobId.length === 0)) {
    throw MemoryError.invalidInput("resumeJobId", "must be a non-empty batch id");
  }
  signal?.throwIfAborted();
  detachSignal?.throwIfAborted();
  // Either signal stops polling and requests (detaching spares the create, see submit); only
  // `signal` cancels the job.
  const stop = anySignal(signal, detachSignal);
  const lines = splitIntoLines(texts);
  const call = caller(context, stop);

  let batch =
    resumeJobId === undefined
      ? await submit(context, texts, lines, call, signal, stop)
      : await resume(context, resumeJobId, call, options, stop);
  try {
    if (resumeJobId === undefined) options.onSubmitted?.(batch.id);
    batch = await waitUntilDone(batch, pollMs, call, options.onStatus, stop);
  } catch (error) {
    // Aborted (or polling gave up): the job would otherwise run on, and be billed, for nothing.
    // Detached: it runs on, with its input file, to be waited for again with `resumeJobId`.
    if (!detached(options)) {
      await cancel(context, batch.id);
      await deleteFiles(context, [batch.input_file_id]);
    }
    throw error;
  }
  try {
    return await collectVectors(batch, { ...context, count: texts.length, lines, call });
  } finally {
    await deleteFiles(context, [batch.input_file_id, batch.output_file_id, batch.error_file_id]);
  }
}

/** Uploads the input file and creates the batch; the file is deleted again when that fails. */
async function submit(
  context: OpenAIBatchJobsContext,
  texts: readonly string[],
  lines: readonly RequestLine[],
  call: Call,
  signal: AbortSignal | undefined,
  stop: AbortSignal | undefined,
): Promise<OpenAI.Batch> {
  const jsonl = lines.map((line) => `${JSON.stringify(requestLine(context, texts, line))}\n`).join("");
  const upload = await toFile(Buffer.from(jsonl, "utf8"), "claw-memory-embeddings.jsonl", {
    type: "application/jsonl",
  });
  const file = await call((client) =>
    client.files.create({ file: upload, purpose: "batch" }, { signal: stop, timeout: FILE_TIMEOUT_MS }),
  );
  try {
    // Not stopped by `detachSignal`: a batch created while the request was cut off could be neither
    // resumed nor cancelled. Once created, its id goes to onSubmitted and detaching takes effect.
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
 * The batch `resumeJobId` names, as it is now: NOT_FOUND when OpenAI does not know it, INVALID_INPUT
 * when it is no embeddings batch (its files are not ours to delete). Other failures reject as any
 * request does (retryable ones may be resumed again).
 */
async function resume(
  context: OpenAIBatchJobsContext,
  jobId: string,
  call: Call,
  options: EmbeddingBatchJobOptions,
  stop: AbortSignal | undefined,
): Promise<OpenAI.Batch> {
  let batch: OpenAI.Batch;
  try {
    batch = await call((client) => client.batches.retrieve(jobId, { signal: stop }));
  } catch (error) {
    if (isMemoryError(error) && statusOf(error.cause) === 404) {
      throw new MemoryError("NOT_FOUND", `${context.label}: no batch ${jobId} to resume`, {
        cause: error.cause,
        retryable: false,
      });
    }
    // Aborted while looking it up: cancelled as a running job would be.
    if (options.signal?.aborted) await cancel(context, jobId);
    throw error;
  }
  if (batch.endpoint !== "/v1/embeddings") {
    throw MemoryError.invalidInput(
      "resumeJobId",
      `batch ${jobId} runs ${batch.endpoint}, not /v1/embeddings`,
    );
  }
  return batch;
}

function statusOf(error: unknown): unknown {
  return (error as { status?: unknown } | null | undefined)?.status;
}

/** Detached, and not aborted as well: the job is left running. */
function detached(options: EmbeddingBatchJobOptions): boolean {
  return options.detachSignal?.aborted === true && options.signal?.aborted !== true;
}

function anySignal(...signals: Array<AbortSignal | undefined>): AbortSignal | undefined {
  const given = signals.filter((signal) => signal !== undefined);
  return given.length > 1 ? AbortSignal.any(given) : given[0];
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
function caller(context: OpenAIBatchJobsContext, signal: AbortSignal | undefined): Call {
  return async (request) => {
    const { client, apiKey } = context.connection.open();
    try {
      return await request(client);
    } catch (error) {
      throw toMemoryError(error, { label: context.label, apiKey, signal });
    }
  };
}

async function waitUntilDone(
  first: OpenAI.Batch,
  pollMs: number,
  call: Call,
  onStatus: ((status: string) => void) | undefined,
  stop: AbortSignal | undefined,
): Promise<OpenAI.Batch> {
  let batch = first;
  let reported = batch.status;
  onStatus?.(reported);
  let failedPolls = 0;
  while (!TERMINAL.has(batch.status)) {
    await sleep(pollMs, stop);
    try {
      batch = await call((client) => client.batches.retrieve(first.id, { signal: stop }));
      failedPolls = 0;
    } catch (error) {
      // A job runs for hours: one lost poll is no reason to give it up.
      const retryable = isMemoryError(error) && error.retryable;
      if (stop?.aborted || !retryable || ++failedPolls >= MAX_POLL_FAILURES) throw error;
      continue;
    }
    if (batch.status !== reported) {
      reported = batch.status;
      onStatus?.(reported);
    }
  }
  return batch;
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
