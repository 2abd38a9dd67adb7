// Turns what the voyageai SDK throws into claw-memory's MemoryError, by status code and class.
import { MemoryError } from "@claw/memory-api";
import { VoyageAIError, VoyageAITimeoutError } from "voyageai";

const REDACTED = "[redacted]";
/** Vendor messages are shown to users and logged; a runaway HTML error page should not be. */
const MAX_DETAIL_LENGTH = 500;

export interface VoyageErrorContext {
  /** Values that must never appear in a message (the API key). */
  secrets: readonly string[];
  /** Set when our own deadline fired: the SDK then only reports "aborted". */
  timedOut?: boolean;
  timeoutMs?: number;
}

/** Maps an error from `client.embed()` to a MemoryError; never classifies by message text. */
export function toMemoryError(error: unknown, context: VoyageErrorContext): MemoryError {
  const scrub = (text: string) => scrubSecrets(text, context.secrets);
  if (context.timedOut === true || error instanceof VoyageAITimeoutError) {
    const after = context.timeoutMs === undefined ? "" : ` within ${context.timeoutMs} ms`;
    return new MemoryError("TIMEOUT", `voyage: no answer${after}`, safeCause(error, context.secrets));
  }
  if (!(error instanceof VoyageAIError)) {
    const text = error instanceof Error ? error.message : String(error);
    return new MemoryError("PROVIDER", `voyage: ${scrub(text)}`, {
      ...safeCause(error, context.secrets),
      retryable: false,
    });
  }
  const status = error.statusCode;
  const options = safeCause(error, context.secrets);
  if (status === undefined) {
    // The SDK reports refused connections, DNS failures and resets without a status code.
    const text = error.message.length > 0 ? error.message : "request failed";
    return new MemoryError("UNAVAILABLE", `voyage: cannot reach the API: ${scrub(text)}`, options);
  }
  const detail = scrub(vendorDetail(error.body));
  const message = `voyage: HTTP ${status}${detail.length > 0 ? `: ${detail}` : ""}`;
  if (status === 401 || status === 403) {
    return new MemoryError("PROVIDER_AUTH", `${message} (check VOYAGE_API_KEY or providers.voyage.api_key)`, {
      ...options,
      retryable: false,
    });
  }
  if (status === 429) {
    const retryAfterSeconds = parseRetryAfter(error.rawResponse?.headers?.get("retry-after") ?? null);
    return new MemoryError("RATE_LIMITED", message, {
      ...options,
      ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
    });
  }
  if (status === 408) return new MemoryError("TIMEOUT", message, options);
  return new MemoryError("PROVIDER", message, { ...options, retryable: status >= 500 });
}

/** Voyage answers errors with `{ "detail": "..." }`; proxies in between may send plain text. */
function vendorDetail(body: unknown): string {
  let text = "";
  if (typeof body === "string") text = body;
  else if (typeof body === "object" && body !== null) {
    const detail = (body as { detail?: unknown }).detail;
    if (typeof detail === "string") text = detail;
    else if (detail !== undefined) text = JSON.stringify(detail);
  }
  text = text.trim();
  return text.length > MAX_DETAIL_LENGTH ? `${text.slice(0, MAX_DETAIL_LENGTH)}…` : text;
}

/** Retry-After is either delta-seconds or an HTTP date; anything else is ignored. */
export function parseRetryAfter(value: string | null, now: Date = new Date()): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now.getTime()) / 1000));
}

export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length > 0) out = out.split(secret).join(REDACTED);
  }
  return out;
}

/**
 * The SDK error is kept as `cause` for debugging unless something in it carries a secret (an
 * echoing proxy, say): a cause gets logged as readily as the message.
 */
function safeCause(error: unknown, secrets: readonly string[]): { cause?: unknown } {
  let seen = "";
  try {
    seen = error instanceof Error ? `${error.message}\n${error.stack ?? ""}` : String(error);
    if (error instanceof VoyageAIError) seen += JSON.stringify(error.body ?? null);
  } catch {
    // An unserialisable body cannot be checked, so it is dropped rather than risked.
    return {};
  }
  return secrets.some((secret) => secret.length > 0 && seen.includes(secret)) ? {} : { cause: error };
}
