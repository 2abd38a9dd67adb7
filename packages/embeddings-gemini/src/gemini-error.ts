// Gemini SDK failures → MemoryError, classified by HTTP status and the structured error body.

import { isMemoryError, MemoryError } from "@claw/memory-api";
import { ApiError } from "@google/genai";

export interface GeminiErrorContext {
  /** Scrubbed from every message and from the cause. */
  apiKey?: string;
  /** The failed response's Retry-After header, when there was one. */
  retryAfterHeader?: string | null;
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
// Google API keys have a fixed shape; scrubbing it also covers keys we were not told about.
const GOOGLE_KEY_SHAPE = /AIza[0-9A-Za-z_-]{35}/g;
const KEY_QUERY_PARAM = /([?&]key=)[^&\s"']+/gi;

export function scrubSecrets(text: string, apiKey?: string): string {
  let out = text;
  if (apiKey !== undefined && apiKey.length > 0) out = out.split(apiKey).join("[redacted]");
  return out.replace(KEY_QUERY_PARAM, "$1[redacted]").replace(GOOGLE_KEY_SHAPE, "[redacted]");
}

export function toMemoryError(error: unknown, context: GeminiErrorContext = {}): MemoryError {
  if (isMemoryError(error)) return error;
  const cause = scrubCause(error, context.apiKey);
  if (error instanceof ApiError) return fromApiError(error, cause, context);
  const name = error instanceof Error ? error.name : undefined;
  if (context.callerAborted === true) {
    return new MemoryError("TIMEOUT", "gemini: request aborted by the caller", { cause, retryable: false });
  }
  if (name === "AbortError" || name === "TimeoutError") {
    const after = context.timeoutMs === undefined ? "" : ` after ${context.timeoutMs} ms`;
    return new MemoryError("TIMEOUT", `gemini: request timed out${after}`, { cause });
  }
  const message = scrubSecrets(error instanceof Error ? error.message : String(error), context.apiKey);
  // undici reports connection failures as TypeError("fetch failed") with the system error as cause.
  if (error instanceof TypeError) {
    const code = (error.cause as { code?: unknown } | undefined)?.code;
    const detail = typeof code === "string" ? ` (${code})` : "";
    return new MemoryError("UNAVAILABLE", `gemini: cannot reach the API${detail}: ${message}`, { cause });
  }
  return new MemoryError("PROVIDER", `gemini: ${message}`, { cause, retryable: false });
}

function fromApiError(error: ApiError, cause: unknown, context: GeminiErrorContext): MemoryError {
  const status = error.status;
  const body = parseErrorBody(error.message);
  const vendorMessage = scrubSecrets(body?.message ?? error.message, context.apiKey);
  const reasons = (body?.details ?? [])
    .map((detail) => detail.reason)
    .filter((reason): reason is string => typeof reason === "string");
  const label = [`HTTP ${status}`, body?.status, ...reasons].filter(Boolean).join(" ");
  const message = `gemini: ${vendorMessage} (${label})`;

  const isAuth =
    status === 401 ||
    status === 403 ||
    (body?.status !== undefined && AUTH_STATUSES.has(body.status)) ||
    reasons.some((reason) => AUTH_REASONS.has(reason));
  if (isAuth)
    return new MemoryError("PROVIDER_AUTH", `${message}; ${AUTH_HINT}`, { cause, retryable: false });
  if (status === 429) {
    const retryAfterSeconds =
      parseRetryAfterHeader(context.retryAfterHeader) ?? parseRetryInfo(body?.details ?? []);
    return new MemoryError("RATE_LIMITED", message, {
      cause,
      ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
    });
  }
  if (status === 408 || status === 504) return new MemoryError("TIMEOUT", message, { cause });
  if (status >= 500) return new MemoryError("PROVIDER", message, { cause, retryable: true });
  return new MemoryError("PROVIDER", message, { cause, retryable: false });
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

/** Retry-After is either delta-seconds or an HTTP date. */
function parseRetryAfterHeader(value: string | null | undefined): number | undefined {
  if (value === null || value === undefined || value.trim() === "") return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
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

/** The original error stays the cause, minus any copy of the key in its message or stack. */
function scrubCause(error: unknown, apiKey?: string): unknown {
  if (!(error instanceof Error)) return error;
  const message = scrubSecrets(error.message, apiKey);
  if (message !== error.message) {
    error.message = message;
    if (error.stack !== undefined) error.stack = scrubSecrets(error.stack, apiKey);
  }
  return error;
}
