// The openai SDK's error classes → the facts provider-utils classifies (status, no answer, our
// deadline, an exhausted quota), with the API key redacted from the message and the cause.
import { isMemoryError } from "@claw/memory-api";
import { type ProviderFailure, parseRetryAfter, providerError, type Redaction } from "@claw/provider-utils";
import OpenAI from "openai";

export interface ErrorContext {
  /** Prefix naming the caller, e.g. "openai embeddings". */
  label: string;
  /** The key sent with the request; removed from every message we pass on. */
  apiKey: string | undefined;
  signal: AbortSignal | undefined;
  now?: () => number;
}

export function toMemoryError(error: unknown, context: ErrorContext): Error {
  if (error instanceof OpenAI.APIUserAbortError || isAbortError(error)) {
    // The caller's own abort: hand back its reason, as fetch would, so core can tell it from a timeout.
    if (context.signal?.aborted) return asError(context.signal.reason);
    return asError(error);
  }
  if (isMemoryError(error)) return error;
  const redaction: Redaction = {
    secrets: [context.apiKey],
    // The parsed error body may echo the key; it is checked, and left behind when it does.
    detailsOf: (e) => (e instanceof OpenAI.APIError ? (e.error ?? null) : undefined),
  };
  const message = `${context.label}: ${messageOf(error)}`;
  return providerError(failureOf(error, context), message, { cause: error, redaction });
}

function failureOf(error: unknown, context: ErrorContext): ProviderFailure {
  if (error instanceof OpenAI.APIConnectionTimeoutError) return { kind: "deadline" };
  if (error instanceof OpenAI.APIConnectionError) return { kind: "unreachable" };
  if (error instanceof OpenAI.APIError && typeof error.status === "number") {
    return {
      kind: "http",
      status: error.status,
      // An exhausted quota answers 429 too, but waiting does not refill it.
      quotaExhausted: error.code === "insufficient_quota",
      retryAfterSeconds: parseRetryAfter(error.headers, context.now?.()),
    };
  }
  return { kind: "unexpected" };
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
