// The end of an OpenAI batch job: its outcome checked, its output file parsed back into vectors.
import { MemoryError } from "@claw/memory-api";
import type OpenAI from "openai";
import { toVectors } from "./openai-embedding-vectors.js";

/** Uploading and downloading files takes longer than one embeddings request. */
export const FILE_TIMEOUT_MS = 10 * 60_000;

/** One request line of the input file: texts[start, start + count). */
export interface RequestLine {
  customId: string;
  start: number;
  count: number;
}

export type Call = <T>(request: (client: OpenAI) => Promise<T>) => Promise<T>;

/** What reading a job's output needs to know. */
export interface BatchOutputContext {
  /** e.g. "openai embeddings (text-embedding-3-small)". */
  label: string;
  dimensions: number;
  /** Texts in the job. */
  count: number;
  lines: readonly RequestLine[];
  call: Call;
}

/**
 * The vectors of a finished job, in input order; rejects when the job failed, expired or was
 * cancelled, or when any of its requests failed.
 */
export async function collectVectors(
  batch: OpenAI.Batch,
  { label, dimensions, count, lines, call }: BatchOutputContext,
): Promise<Float32Array[]> {
  const prefix = `${label}: batch ${batch.id}`;
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
    const part = toVectors(body, line.count, dimensions, `${prefix} ${line.customId}`);
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
