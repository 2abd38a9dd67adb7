// OpenAI's Batch API for embeddings: one JSONL upload, one batch, status polls, one output download.
import type { EmbeddingBatchJobOptions, EmbeddingBatchJobs } from "@claw/memory-api";
import { isMemoryError, MemoryError } from "@claw/memory-api";
import type OpenAI from "openai";
import { toFile } from "openai";
import type { OpenAIConnection } from "./openai-connection.js";
import { toVectors } from "./openai-embedding-vectors.js";
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
/** Uploading and downloading files takes longer than one embeddings request. */
const FILE_TIMEOUT_MS = 10 * 60_000;
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

/** One request line of the input file: texts[start, start + count). */
interface RequestLine {
  customId: string;
  start: number;
  count: number;
}

export function createOpenAIBatchJobs(context: OpenAIBatchJobsContext): EmbeddingBatchJobs {
  return {
    maxTextsPerJob: MAX_TEXTS_PER_JOB,
    maxCharsPerJob: MAX_CHARS_PER_JOB,
    embedInBatchJob: (texts, options = {}) => runJob(context, texts, options),
  };
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
  const { signal } = options;
  signal?.throwIfAborted();
  const lines = splitIntoLines(texts);
  const call = caller(context, signal);

  const jsonl = lines.map((line) => `${JSON.stringify(requestLine(context, texts, line))}\n`).join("");
  const upload = await toFile(Buffer.from(jsonl, "utf8"), "claw-memory-embeddings.jsonl", {
    type: "application/jsonl",
  });
  const file = await call((client) =>
    client.files.create({ file: upload, purpose: "batch" }, { signal, timeout: FILE_TIMEOUT_MS }),
  );
  let batch: OpenAI.Batch;
  try {
    batch = await call((client) =>
      client.batches.create(
        { input_file_id: file.id, endpoint: "/v1/embeddings", completion_window: "24h" },
        { signal },
      ),
    );
  } catch (error) {
    await deleteFiles(context, [file.id]);
    throw error;
  }

  try {
    batch = await waitUntilDone(batch, pollMs, call, options);
  } catch (error) {
    // Aborted (or polling gave up): the job would otherwise run on, and be billed, for nothing.
    await cancel(context, batch.id);
    throw error;
  }
  try {
    return await collect(context, batch, texts.length, lines, call);
  } finally {
    await deleteFiles(context, [file.id, batch.output_file_id, batch.error_file_id]);
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

type Call = <T>(request: (client: OpenAI) => Promise<T>) => Promise<T>;

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
  created: OpenAI.Batch,
  pollMs: number,
  call: Call,
  options: EmbeddingBatchJobOptions,
): Promise<OpenAI.Batch> {
  let batch = created;
  let reported = batch.status;
  options.onStatus?.(reported);
  let failedPolls = 0;
  while (!TERMINAL.has(batch.status)) {
    await sleep(pollMs, options.signal);
    try {
      batch = await call((client) => client.batches.retrieve(created.id, { signal: options.signal }));
      failedPolls = 0;
    } catch (error) {
      // A job runs for hours: one lost poll is no reason to give it up.
      const retryable = isMemoryError(error) && error.retryable;
      if (options.signal?.aborted || !retryable || ++failedPolls >= MAX_POLL_FAILURES) throw error;
      continue;
    }
    if (batch.status !== reported) {
      reported = batch.status;
      options.onStatus?.(reported);
    }
  }
  return batch;
}

async function collect(
  context: OpenAIBatchJobsContext,
  batch: OpenAI.Batch,
  count: number,
  lines: readonly RequestLine[],
  call: Call,
): Promise<Float32Array[]> {
  const prefix = `${context.label}: batch ${batch.id}`;
  if (batch.status === "failed") {
    const reasons = (batch.errors?.data ?? []).map((e) => `${e.code ?? "error"}: ${e.message ?? ""}`.trim());
    throw new MemoryError(
      "PROVIDER",
      `${prefix} failed${reasons.length > 0 ? ` (${reasons.join("; ")})` : ""}`,
      {
        retryable: false,
      },
    );
  }
  if (batch.status === "expired") {
    throw new MemoryError("TIMEOUT", `${prefix} expired before it completed (24 h window)`, {
      retryable: false,
    });
  }
  if (batch.status === "cancelled") {
    throw new MemoryError("PROVIDER", `${prefix} was cancelled`, { retryable: false });
  }

  const failed = batch.request_counts?.failed ?? 0;
  if (failed > 0 || !batch.output_file_id) {
    const detail = batch.error_file_id ? await firstLineError(call, batch.error_file_id) : undefined;
    const counted = failed > 0 ? `${failed} of ${lines.length} requests failed` : "no output file";
    throw lineFailure(prefix, counted, detail);
  }
  const output = await download(call, batch.output_file_id);
  const vectors = new Array<Float32Array | undefined>(count);
  const byId = new Map(lines.map((line) => [line.customId, line]));
  for (const parsed of parseJsonl(output, prefix)) {
    const line = byId.get(String(parsed.custom_id));
    if (line === undefined) {
      throw new MemoryError("PROVIDER", `${prefix}: unexpected custom_id ${String(parsed.custom_id)}`);
    }
    byId.delete(line.customId);
    const error = errorOfLine(parsed);
    if (error !== undefined) throw lineFailure(prefix, `request ${line.customId} failed`, error);
    const body = (parsed.response as { body?: unknown }).body as OpenAI.CreateEmbeddingResponse;
    const part = toVectors(body, line.count, context.dimensions, `${prefix} ${line.customId}`);
    for (const [i, vector] of part.entries()) vectors[line.start + i] = vector;
  }
  if (byId.size > 0) {
    throw new MemoryError("PROVIDER", `${prefix}: no answer for ${[...byId.keys()].join(", ")}`);
  }
  return vectors as Float32Array[];
}

interface LineError {
  status?: number;
  message: string;
}

/** A failed line's status and message: `error` set, or a response other than 200. */
function errorOfLine(line: Record<string, unknown>): LineError | undefined {
  const response = line.response as { status_code?: unknown; body?: unknown } | null | undefined;
  const status = typeof response?.status_code === "number" ? response.status_code : undefined;
  const topError = line.error as { code?: unknown; message?: unknown } | null | undefined;
  if (topError) {
    return { ...(status === undefined ? {} : { status }), message: describe(topError) };
  }
  if (status === 200) return undefined;
  const bodyError = (response?.body as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  return {
    ...(status === undefined ? {} : { status }),
    message: bodyError ? describe(bodyError) : `status ${status ?? "missing"}`,
  };
}

function describe(error: { code?: unknown; message?: unknown }): string {
  const code = typeof error.code === "string" && error.code.length > 0 ? `${error.code}: ` : "";
  return `${code}${typeof error.message === "string" ? error.message : "unknown error"}`;
}

/** The job's failure, classified by the failed request's HTTP status. */
function lineFailure(prefix: string, what: string, error: LineError | undefined): MemoryError {
  const message = `${prefix}: ${what}${error ? ` (${error.message})` : ""}`;
  const status = error?.status;
  if (status === 401 || status === 403)
    return new MemoryError("PROVIDER_AUTH", message, { retryable: false });
  if (status === 429) return new MemoryError("RATE_LIMITED", message, { retryable: false });
  return new MemoryError("PROVIDER", message, { retryable: false });
}

async function firstLineError(call: Call, fileId: string): Promise<LineError | undefined> {
  try {
    for (const line of parseJsonl(await download(call, fileId), "error file")) {
      const error = errorOfLine(line);
      if (error !== undefined) return error;
    }
  } catch {
    // The error file only explains the failure; the failure stands without it.
  }
  return undefined;
}

async function download(call: Call, fileId: string): Promise<string> {
  return call(async (client) => {
    const response = await client.files.content(fileId, { timeout: FILE_TIMEOUT_MS });
    return response.text();
  });
}

function parseJsonl(text: string, prefix: string): Record<string, unknown>[] {
  const lines: Record<string, unknown>[] = [];
  for (const [index, raw] of text.split("\n").entries()) {
    if (raw.trim() === "") continue;
    try {
      const value: unknown = JSON.parse(raw);
      if (typeof value !== "object" || value === null) throw new Error("not an object");
      lines.push(value as Record<string, unknown>);
    } catch (error) {
      throw new MemoryError("PROVIDER", `${prefix}: output line ${index + 1} is not JSON`, { cause: error });
    }
  }
  return lines;
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
