// The one table from what went wrong with a provider request to MemoryError's code and retryability.
// Vendor packages turn their SDK's errors into a ProviderFailure (facts: a status, no answer, our
// deadline) and never decide codes themselves, so every provider classifies a status the same way:
//
//   what happened                              code            retryable
//   401, 403 (or the vendor says: bad key)     PROVIDER_AUTH   no
//   408, 504                                   TIMEOUT         yes
//   429                                        RATE_LIMITED    yes, retryAfterSeconds when known
//   429 with the quota exhausted               PROVIDER        no (waiting does not refill a quota)
//   409                                        PROVIDER        yes (a conflicting concurrent request;
//                                                                   embedding calls are idempotent)
//   any other status >= 500                    PROVIDER        yes
//   any other status (4xx)                     PROVIDER        no
//   no status: refused, reset, DNS failure     UNAVAILABLE     yes
//   our own deadline fired                     TIMEOUT         yes
//   anything else (an SDK or parsing failure)  PROVIDER        no
import { isMemoryError, MemoryError, type MemoryErrorCode } from "@claw/memory-api";
import { type Redaction, redactCause, redactSecrets } from "./redact-secrets.js";

/**
 * What went wrong with a provider request, as the error mapping sees it: an HTTP status, no answer
 * at all, the request's own deadline, or something unexpected.
 */
export type ProviderFailure =
  | {
      kind: "http";
      status: number;
      /** From Retry-After (see parseRetryAfter) or the vendor's body; kept for 429 only. */
      retryAfterSeconds?: number;
      /** The vendor says the quota is used up (OpenAI's `insufficient_quota`): a 429 not worth retrying. */
      quotaExhausted?: boolean;
      /** The vendor's body says the credentials were refused, whatever the status (Gemini's API_KEY_INVALID on 400). */
      credentialsRejected?: boolean;
    }
  /** No HTTP answer at all: connection refused or reset, DNS failure. */
  | { kind: "unreachable" }
  /** The request's own deadline (not the caller's signal) fired. */
  | { kind: "deadline" }
  /** Something else failed: an SDK bug, an answer that could not be parsed. */
  | { kind: "unexpected" };

/** The MemoryError a provider failure becomes: its code, whether to retry, and after how long. */
export interface FailureClass {
  code: MemoryErrorCode;
  retryable: boolean;
  retryAfterSeconds?: number;
}

/** The table above, as a function. */
export function classifyFailure(failure: ProviderFailure): FailureClass {
  switch (failure.kind) {
    case "unreachable":
      return { code: "UNAVAILABLE", retryable: true };
    case "deadline":
      return { code: "TIMEOUT", retryable: true };
    case "unexpected":
      return { code: "PROVIDER", retryable: false };
    case "http":
      return classifyStatus(failure);
  }
}

function classifyStatus(failure: Extract<ProviderFailure, { kind: "http" }>): FailureClass {
  const { status } = failure;
  if (status === 401 || status === 403 || failure.credentialsRejected === true) {
    return { code: "PROVIDER_AUTH", retryable: false };
  }
  if (status === 408 || status === 504) return { code: "TIMEOUT", retryable: true };
  if (status === 429) {
    if (failure.quotaExhausted === true) return { code: "PROVIDER", retryable: false };
    const { retryAfterSeconds } = failure;
    return {
      code: "RATE_LIMITED",
      retryable: true,
      ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
    };
  }
  if (status === 409 || status >= 500) return { code: "PROVIDER", retryable: true };
  return { code: "PROVIDER", retryable: false };
}

/** Options of the provider error mapping: the cause, and the secrets to redact from it. */
export interface ProviderErrorOptions {
  /** The error being mapped; omitted when undefined. */
  cause?: unknown;
  /** When given, the message and the cause chain are redacted with it (see redactCause). */
  redaction?: Redaction;
  /** Added to the message of a PROVIDER_AUTH error, e.g. "check VOYAGE_API_KEY". */
  authHint?: string;
}

/** The MemoryError for a failure, classified by the table above, with no secret in it. */
export function providerError(
  failure: ProviderFailure,
  message: string,
  options: ProviderErrorOptions = {},
): MemoryError {
  const { code, retryable, retryAfterSeconds } = classifyFailure(failure);
  const { redaction, authHint } = options;
  const hint = code === "PROVIDER_AUTH" && authHint !== undefined ? ` (${authHint})` : "";
  const cause = redaction === undefined ? options.cause : redactCause(options.cause, redaction);
  const text = `${message}${hint}`;
  return new MemoryError(code, redaction === undefined ? text : redactSecrets(text, redaction), {
    retryable,
    ...(cause === undefined ? {} : { cause }),
    ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
  });
}

/** The HTTP status an SDK error (or its redacted copy) carries as `status` or `statusCode`. */
export function httpStatusOf(error: unknown): number | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const { status, statusCode } = error as { status?: unknown; statusCode?: unknown };
  if (typeof status === "number") return status;
  return typeof statusCode === "number" ? statusCode : undefined;
}

/**
 * NOT_FOUND (not retryable) in place of a MemoryError whose cause is an HTTP 404, e.g. a batch job
 * the vendor no longer knows; any other error is returned as it is.
 */
export function notFoundOn404(error: unknown, message: string): unknown {
  if (isMemoryError(error) && httpStatusOf(error.cause) === 404) {
    return new MemoryError("NOT_FOUND", message, { cause: error, retryable: false });
  }
  return error;
}
