// Gemini SDK failures → the facts provider-utils classifies (status, no answer, our deadline), read
// from the HTTP status and the structured error body (google.rpc.Status, RetryInfo, ErrorInfo).

import { isMemoryError, MemoryError } from "@claw/memory-api";
import {
  type HeaderReader,
  parseRetryAfter,
  providerError,
  type Redaction,
  redactCause,
} from "@claw/provider-utils";
import { ApiError } from "@google/genai";

export interface GeminiErrorContext {
  /** Scrubbed from every message and from the cause. */
  apiKey?: string;
  /** The failed response's headers (the SDK's ApiError drops them), for Retry-After. */
  responseHeaders?: HeaderReader | null;
  /** The caller's signal fired (as opposed to our own timeout). */
  callerAborted?: boolean;
  timeoutMs?: number;
}

/** The `error` object of a Google API error body (google.rpc.Status). */
interface GoogleErrorBody {
  code?: number;
  message?: string;
  status?: string;
  details?: Array<Record<string, unknown>>;
}

const AUTH_STATUSES = new Set(["UNAUTHENTICATED", "PERMISSION_DENIED"]);
const AUTH_REASONS = new Set([
  "API_KEY_INVALID",
  "API_KEY_EXPIRED",
  "API_KEY_SERVICE_BLOCKED",
  "API_KEY_HTTP_REFERRER_BLOCKED",
  "API_KEY_IP_ADDRESS_BLOCKED",
]);
const AUTH_HINT = "check GEMINI_API_KEY (or providers.gemini.api_key)";

/** The key we sent, and Google key shapes and `?key=` values we were not told about. */
export function geminiRedaction(apiKey: string | undefined): Redaction {
  return {
    secrets: [apiKey],
    patterns: [
      { pattern: /([?&]key=)[^&\s"']+/gi, replacement: "$1[redacted]" },
      // Google API keys have a fixed shape.
      { pattern: /AIza[0-9A-Za-z_-]{35}/g },
    ],
  };
}

export function toMemoryError(error: unknown, context: GeminiErrorContext = {}): MemoryError {
  if (isMemoryError(error)) return error;
  const redaction = geminiRedaction(context.apiKey);
  if (error instanceof ApiError) return fromApiError(error, redaction, context);
  const options = { cause: error, redaction };
  if (context.callerAborted === true) {
    // Not in the status table: the caller gave up, so retrying on its behalf makes no sense.
    const cause = redactCause(error, redaction);
    return new MemoryError("TIMEOUT", "gemini: request aborted by the caller", { cause, retryable: false });
  }
  const name = error instanceof Error ? error.name : undefined;
  if (name === "AbortError" || name === "TimeoutError") {
    const after = context.timeoutMs === undefined ? "" : ` after ${context.timeoutMs} ms`;
    return providerError({ kind: "deadline" }, `gemini: request timed out${after}`, options);
  }
  const message = error instanceof Error ? error.message : String(error);
  // undici reports connection failures as TypeError("fetch failed") with the system error as cause.
  if (error instanceof TypeError) {
    const code = (error.cause as { code?: unknown } | undefined)?.code;
    const detail = typeof code === "string" ? ` (${code})` : "";
    return providerError(
      { kind: "unreachable" },
      `gemini: cannot reach the API${detail}: ${message}`,
      options,
    );
  }
  return providerError({ kind: "unexpected" }, `gemini: ${message}`, options);
}

function fromApiError(error: ApiError, redaction: Redaction, context: GeminiErrorContext): MemoryError {
  const status = error.status;
  const body = parseErrorBody(error.message);
  const reasons = (body?.details ?? [])
    .map((detail) => detail.reason)
    .filter((reason): reason is string => typeof reason === "string");
  const label = [`HTTP ${status}`, body?.status, ...reasons].filter(Boolean).join(" ");
  const credentialsRejected =
    (body?.status !== undefined && AUTH_STATUSES.has(body.status)) ||
    reasons.some((reason) => AUTH_REASONS.has(reason));
  const retryAfterSeconds = parseRetryAfter(context.responseHeaders) ?? parseRetryInfo(body?.details ?? []);
  return providerError(
    { kind: "http", status, credentialsRejected, retryAfterSeconds },
    `gemini: ${body?.message ?? error.message} (${label})`,
    { cause: error, redaction, authHint: AUTH_HINT },
  );
}

/** The SDK puts the JSON error body, stringified, in ApiError.message. */
function parseErrorBody(text: string): GoogleErrorBody | undefined {
  try {
    const parsed = JSON.parse(text) as { error?: unknown };
    const inner = parsed?.error;
    if (typeof inner !== "object" || inner === null) return undefined;
    const raw = inner as Record<string, unknown>;
    return {
      code: typeof raw.code === "number" ? raw.code : undefined,
      message: typeof raw.message === "string" ? raw.message : undefined,
      status: typeof raw.status === "string" ? raw.status : undefined,
      details: Array.isArray(raw.details)
        ? raw.details.filter((d): d is Record<string, unknown> => typeof d === "object" && d !== null)
        : undefined,
    };
  } catch {
    // Not JSON (a proxy's HTML page, say): the raw text is the message.
    return undefined;
  }
}

/** google.rpc.RetryInfo: `retryDelay` as a proto Duration ("7s", "0.5s" or { seconds, nanos }). */
function parseRetryInfo(details: Array<Record<string, unknown>>): number | undefined {
  const info = details.find(
    (detail) => typeof detail["@type"] === "string" && detail["@type"].endsWith("google.rpc.RetryInfo"),
  );
  const delay = info?.retryDelay;
  if (typeof delay === "string" && delay.endsWith("s")) {
    const seconds = Number(delay.slice(0, -1));
    return Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
  }
  if (typeof delay === "object" && delay !== null) {
    const { seconds, nanos } = delay as { seconds?: unknown; nanos?: unknown };
    const total = Number(seconds ?? 0) + Number(nanos ?? 0) / 1e9;
    return Number.isFinite(total) && total >= 0 ? total : undefined;
  }
  return undefined;
}
