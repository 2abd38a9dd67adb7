// A finished Gemini batch job → its vectors in input order, or the MemoryError its end calls for
// (fresh and resumed jobs alike).
import { MemoryError } from "@claw/memory-api";
import type { BatchJob, JobError } from "@google/genai";
import { toVector } from "./gemini-vectors.js";

const FAILED_STATES: Record<string, { code: "PROVIDER" | "TIMEOUT"; what: string }> = {
  JOB_STATE_FAILED: { code: "PROVIDER", what: "failed" },
  JOB_STATE_CANCELLED: { code: "PROVIDER", what: "was cancelled" },
  JOB_STATE_EXPIRED: { code: "TIMEOUT", what: "expired before it completed" },
};
const DONE_STATES = new Set(["JOB_STATE_SUCCEEDED", "JOB_STATE_PARTIALLY_SUCCEEDED"]);

/** google.rpc codes (and HTTP statuses) of a failed request → MemoryError codes. */
const AUTH_CODES = new Set([7, 16, 401, 403]);
const RATE_CODES = new Set([8, 429]);

export interface VectorSettings {
  dimensions: number;
  normalise: boolean;
}

export function isTerminal(state: string | undefined): boolean {
  return state !== undefined && (DONE_STATES.has(state) || state in FAILED_STATES);
}

export function collect(
  settings: VectorSettings,
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
    toVector(answer.response?.embedding?.values, index, settings.dimensions, settings.normalise),
  );
}

function fail(code: "PROVIDER" | "PROVIDER_AUTH" | "RATE_LIMITED", message: string): never {
  throw new MemoryError(code, message, { retryable: false });
}
