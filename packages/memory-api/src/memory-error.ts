/** The one error class of claw-memory. Recognised across duplicate package copies by a global symbol. */
export const MEMORY_ERROR_CODES = [
  "INVALID_INPUT",
  "NOT_FOUND",
  "CONFLICT",
  "STORAGE",
  /** The store's file is damaged (SQLITE_CORRUPT, SQLITE_NOTADB, PostgreSQL XX001/XX002). */
  "CORRUPT",
  /** No space left for the write (SQLITE_FULL, ENOSPC, PostgreSQL 53100); nothing was written. */
  "STORAGE_FULL",
  "PROVIDER",
  "PROVIDER_AUTH",
  "RATE_LIMITED",
  "TIMEOUT",
  "UNAVAILABLE",
  "UNAUTHORIZED",
  "FORBIDDEN",
] as const;

/** What kind of failure a MemoryError is; the HTTP server maps each to a status. */
export type MemoryErrorCode = (typeof MEMORY_ERROR_CODES)[number];

const MARKER = Symbol.for("claw.memory.error");

/** The optional parts of a MemoryError. */
export interface MemoryErrorOptions {
  cause?: unknown;
  /** The input field or config key at fault (for INVALID_INPUT). */
  field?: string;
  /** Seconds the caller should wait before retrying (for RATE_LIMITED). */
  retryAfterSeconds?: number;
  /** Whether retrying the same call may succeed. */
  retryable?: boolean;
}

/**
 * The error every claw-memory package throws. `code` says what went wrong, `field` names the bad input
 * (INVALID_INPUT), `retryable` whether trying again may help.
 */
export class MemoryError extends Error {
  readonly code: MemoryErrorCode;
  readonly field?: string;
  readonly retryAfterSeconds?: number;
  readonly retryable: boolean;
  /** Read by isMemoryError() through the global symbol, so copies of this package agree. */
  readonly [MARKER] = true;

  constructor(code: MemoryErrorCode, message: string, options: MemoryErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "MemoryError";
    this.code = code;
    if (options.field !== undefined) this.field = options.field;
    if (options.retryAfterSeconds !== undefined) this.retryAfterSeconds = options.retryAfterSeconds;
    this.retryable =
      options.retryable ??
      (code === "RATE_LIMITED" || code === "TIMEOUT" || code === "UNAVAILABLE" || code === "STORAGE_FULL");
  }

  /** An INVALID_INPUT error naming `field`. */
  static invalidInput(field: string, message: string, cause?: unknown): MemoryError {
    return new MemoryError("INVALID_INPUT", `${field}: ${message}`, { field, cause });
  }

  /** True for a MemoryError, also one from another copy of this package. */
  static isInstance(value: unknown): value is MemoryError {
    return isMemoryError(value);
  }
}

/** True for a MemoryError from any copy of this package. */
export function isMemoryError(value: unknown, code?: MemoryErrorCode): value is MemoryError {
  if (typeof value !== "object" || value === null) return false;
  if ((value as Record<symbol, unknown>)[MARKER] !== true) return false;
  return code === undefined || (value as MemoryError).code === code;
}
