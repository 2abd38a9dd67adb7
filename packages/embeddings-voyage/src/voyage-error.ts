// What the voyageai SDK throws → the facts provider-utils classifies (status, no answer, our
// deadline), with Voyage's `{ "detail": ... }` body as the message and the key redacted.
import type { MemoryError } from "@claw/memory-api";
import { parseRetryAfter, providerError, type Redaction, redactSecrets } from "@claw/provider-utils";
import { VoyageAIError, VoyageAITimeoutError } from "voyageai";

/** Vendor messages are shown to users and logged; a runaway HTML error page should not be. */
const MAX_DETAIL_LENGTH = 500;
const AUTH_HINT = "check VOYAGE_API_KEY or providers.voyage.api_key";

export interface VoyageErrorContext {
  /** Values that must never appear in a message (the API key). */
  secrets: readonly string[];
  /** Set when our own deadline fired: the SDK then only reports "aborted". */
  timedOut?: boolean;
  timeoutMs?: number;
  /** Dates an HTTP-date Retry-After; default Date.now(). */
  now?: number;
}

/** Maps an error from `client.embed()` to a MemoryError; never classifies by message text. */
export function toMemoryError(error: unknown, context: VoyageErrorContext): MemoryError {
  const redaction: Redaction = {
    secrets: context.secrets,
    detailsOf: (e) => (e instanceof VoyageAIError ? (e.body ?? null) : undefined),
  };
  const options = { cause: error, redaction, authHint: AUTH_HINT };
  if (context.timedOut === true || error instanceof VoyageAITimeoutError) {
    const after = context.timeoutMs === undefined ? "" : ` within ${context.timeoutMs} ms`;
    return providerError({ kind: "deadline" }, `voyage: no answer${after}`, options);
  }
  if (!(error instanceof VoyageAIError)) {
    const text = error instanceof Error ? error.message : String(error);
    return providerError({ kind: "unexpected" }, `voyage: ${text}`, options);
  }
  const status = error.statusCode;
  if (status === undefined) {
    // The SDK reports refused connections, DNS failures and resets without a status code.
    const text = error.message.length > 0 ? error.message : "request failed";
    return providerError({ kind: "unreachable" }, `voyage: cannot reach the API: ${text}`, options);
  }
  const detail = vendorDetail(error.body, redaction);
  const retryAfterSeconds = parseRetryAfter(error.rawResponse?.headers, context.now);
  const message = `voyage: HTTP ${status}${detail.length > 0 ? `: ${detail}` : ""}`;
  return providerError({ kind: "http", status, retryAfterSeconds }, message, options);
}

/** Voyage answers errors with `{ "detail": "..." }`; proxies in between may send plain text. */
function vendorDetail(body: unknown, redaction: Redaction): string {
  let text = "";
  if (typeof body === "string") text = body;
  else if (typeof body === "object" && body !== null) {
    const detail = (body as { detail?: unknown }).detail;
    if (typeof detail === "string") text = detail;
    else if (detail !== undefined) text = JSON.stringify(detail);
  }
  // Redacted before it is cut short, so that no part of a key survives the cut.
  text = redactSecrets(text.trim(), redaction);
  return text.length > MAX_DETAIL_LENGTH ? `${text.slice(0, MAX_DETAIL_LENGTH)}…` : text;
}
