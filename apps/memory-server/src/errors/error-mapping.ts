// The one place errors become HTTP responses: MemoryError codes → statuses, fastify's own errors
// (validation, body size, media type) → the same `{ error: { code, message } }` body. Messages of
// failures inside the server (storage, providers, bugs) are logged, never sent: they can name
// files or carry a provider's reply.
import { isMemoryError, type MemoryErrorCode } from "@claw/memory-api";

/** Codes only the HTTP layer produces. */
export type HttpErrorCode =
  | "PAYLOAD_TOO_LARGE"
  | "UNSUPPORTED_MEDIA_TYPE"
  | "METHOD_NOT_ALLOWED"
  | "INTERNAL";
/** Every `error.code` the HTTP API answers with. */
export type ApiErrorCode = MemoryErrorCode | HttpErrorCode;

/** The HTTP status of each error code. */
export const STATUS_BY_CODE: Readonly<Record<ApiErrorCode, number>> = Object.freeze({
  INVALID_INPUT: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  PROVIDER: 502,
  PROVIDER_AUTH: 502,
  STORAGE: 503,
  CORRUPT: 503,
  STORAGE_FULL: 503,
  UNAVAILABLE: 503,
  TIMEOUT: 504,
});

/** Codes whose own message stays in the log; the client gets this one instead. */
const HIDDEN_MESSAGES: Partial<Record<ApiErrorCode, string>> = {
  STORAGE: "the memory store failed; see the server log",
  CORRUPT: "the memory store's database is damaged; the operator should run `claw-memory doctor`",
  STORAGE_FULL: "the server's disk is full; nothing was written; try again once space is freed",
  PROVIDER: "the embedding provider failed; see the server log",
  PROVIDER_AUTH: "the embedding provider refused the server's credentials; see the server log",
  INTERNAL: "internal error; see the server log",
};

/** An error only the HTTP layer raises (a wrong media type, a wrong method). */
export class HttpError extends Error {
  constructor(
    readonly code: HttpErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "HttpError";
  }
}

/** An error as the HTTP API answers it, and what is logged about it. */
export interface ApiError {
  status: number;
  code: ApiErrorCode;
  /** What the client is told. */
  message: string;
  /** What the log is told (the original message when it was hidden from the client). */
  logMessage: string;
  retryAfterSeconds?: number;
}

interface FastifyLikeError {
  code?: string;
  statusCode?: number;
  message?: string;
  validation?: ReadonlyArray<{
    instancePath?: string;
    keyword?: string;
    message?: string;
    params?: Record<string, unknown>;
  }>;
  validationContext?: string;
}

/**
 * Any thrown value as an ApiError; the message of an internal failure is kept for the log and hidden from the
 * client.
 */
export function toApiError(error: unknown): ApiError {
  if (isMemoryError(error)) {
    const code = error.code;
    return finish(code, error.message, error.retryAfterSeconds);
  }
  if (error instanceof HttpError) return finish(error.code, error.message);
  const fastifyError = (typeof error === "object" && error !== null ? error : {}) as FastifyLikeError;
  if (Array.isArray(fastifyError.validation) && fastifyError.validation.length > 0) {
    return finish("INVALID_INPUT", validationMessage(fastifyError));
  }
  switch (fastifyError.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return finish("PAYLOAD_TOO_LARGE", "the request body is over the server's body limit");
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return finish("UNSUPPORTED_MEDIA_TYPE", "unsupported Content-Type: send application/json");
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return finish("INVALID_INPUT", "body: must not be empty when Content-Type is application/json");
    case "FST_ERR_CTP_INVALID_JSON_BODY":
      return finish("INVALID_INPUT", "body: invalid JSON");
  }
  const status = fastifyError.statusCode;
  if (typeof status === "number" && status >= 400 && status < 500) {
    // Other client errors fastify raises (bad content length, proto poisoning, …): their messages
    // describe the request, not the server.
    const code: ApiErrorCode =
      status === 404 ? "NOT_FOUND" : status === 413 ? "PAYLOAD_TOO_LARGE" : "INVALID_INPUT";
    return finish(code, fastifyError.message ?? "bad request");
  }
  return finish("INTERNAL", error instanceof Error ? error.message : String(error));
}

function finish(code: ApiErrorCode, message: string, retryAfterSeconds?: number): ApiError {
  return {
    status: STATUS_BY_CODE[code],
    code,
    message: HIDDEN_MESSAGES[code] ?? message,
    logMessage: message,
    ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
  };
}

/** Names the field the way MemoryError.invalidInput does: `limit: must be integer`. */
function validationMessage(error: FastifyLikeError): string {
  const first = error.validation?.[0] ?? {};
  const part = error.validationContext === "querystring" ? "query" : (error.validationContext ?? "body");
  const segments = (first.instancePath ?? "")
    .split("/")
    .filter((s) => s !== "")
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
  const extra = first.params?.missingProperty ?? first.params?.additionalProperty;
  if (typeof extra === "string") segments.push(extra);
  const field = segments.reduce<string>(
    (path, s) => (/^\d+$/.test(s) ? `${path}[${s}]` : path === "" ? s : `${path}.${s}`),
    "",
  );
  const reason =
    first.keyword === "additionalProperties"
      ? "is not a known field"
      : first.keyword === "required"
        ? "is required"
        : (first.message ?? "is invalid");
  return `${field === "" ? part : field}: ${reason}`;
}
