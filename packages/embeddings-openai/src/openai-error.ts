// Maps the openai SDK's errors to MemoryError by class and HTTP status, with the API key scrubbed.
import { isMemoryError, MemoryError } from "@claw/memory-api";
import OpenAI from "openai";

export interface ErrorContext {
  /** Prefix naming the caller, e.g. "openai embeddings". */
  label: string;
  /** The key sent with the request; removed from every message we pass on. */
  apiKey: string | undefined;
  signal: AbortSignal | undefined;
  now?: () => number;
}

const REDACTED = "[redacted]";

export function toMemoryError(error: unknown, context: ErrorContext): Error {
  if (error instanceof OpenAI.APIUserAbortError || isAbortError(error)) {
    // The caller's own abort: hand back its reason, as fetch would, so core can tell it from a timeout.
    if (context.signal?.aborted) return asError(context.signal.reason);
    return asError(error);
  }
  if (isMemoryError(error)) return error;
  const message = `${context.label}: ${scrub(messageOf(error), context.apiKey)}`;
  const cause = redactCause(error, context.apiKey);
  if (error instanceof OpenAI.APIConnectionTimeoutError) {
    return new MemoryError("TIMEOUT", message, { cause, retryable: true });
  }
  if (error instanceof OpenAI.APIConnectionError) {
    return new MemoryError("UNAVAILABLE", message, { cause, retryable: true });
  }
  if (error instanceof OpenAI.APIError && typeof error.status === "number") {
    const status = error.status;
    if (status === 401 || status === 403) {
      return new MemoryError("PROVIDER_AUTH", message, { cause, retryable: false });
    }
    if (status === 429) {
      // An exhausted quota answers 429 too, but waiting does not refill it.
      if (error.code === "insufficient_quota") {
        return new MemoryError("PROVIDER", message, { cause, retryable: false });
      }
      const retryAfterSeconds = parseRetryAfter(error.headers, context.now?.() ?? Date.now());
      return new MemoryError("RATE_LIMITED", message, {
        cause,
        retryable: true,
        ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
      });
    }
    const retryable = status === 408 || status === 409 || status >= 500;
    return new MemoryError("PROVIDER", message, { cause, retryable });
  }
  return new MemoryError("PROVIDER", message, { cause, retryable: false });
}

/** Seconds to wait from `retry-after-ms` (OpenAI's precise form) or `Retry-After` (seconds or HTTP date). */
export function parseRetryAfter(headers: Headers | undefined, now: number): number | undefined {
  const ms = headers?.get("retry-after-ms");
  if (ms) {
    const value = Number(ms);
    if (Number.isFinite(value) && value >= 0) return value / 1000;
  }
  const header = headers?.get("retry-after");
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - now) / 1000);
}

export function scrub(text: string, apiKey: string | undefined): string {
  return apiKey ? text.split(apiKey).join(REDACTED) : text;
}

/**
 * The SDK error itself when no message in its cause chain holds the key; otherwise plain copies with
 * the key removed (the response body, which may echo it, is left behind). Loggers print causes.
 */
function redactCause(error: unknown, apiKey: string | undefined): unknown {
  if (!apiKey || !chainMentions(error, apiKey, 0)) return error;
  return redactedCopy(error, apiKey, 0);
}

function chainMentions(error: unknown, apiKey: string, depth: number): boolean {
  if (depth > 8 || error === undefined || error === null) return false;
  if (messageOf(error).includes(apiKey)) return true;
  if (error instanceof OpenAI.APIError && JSON.stringify(error.error ?? null).includes(apiKey)) return true;
  return chainMentions((error as { cause?: unknown }).cause, apiKey, depth + 1);
}

function redactedCopy(error: unknown, apiKey: string, depth: number): Error {
  const inner = (error as { cause?: unknown } | null)?.cause;
  const copy = new Error(
    scrub(messageOf(error), apiKey),
    depth < 8 && inner !== undefined ? { cause: redactedCopy(inner, apiKey, depth + 1) } : undefined,
  );
  copy.name = error instanceof Error ? error.name : "Error";
  if (error instanceof OpenAI.APIError && error.status !== undefined) {
    Object.assign(copy, { status: error.status });
  }
  return copy;
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === "string" ? error : String(error);
}

function isAbortError(error: unknown): boolean {
  return error instanceof Error && error.name === "AbortError";
}

function asError(value: unknown): Error {
  return value instanceof Error ? value : new DOMException(String(value), "AbortError");
}
