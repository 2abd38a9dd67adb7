// What kind of storage failure an engine's error is, told by its code (never by its message): a
// damaged file (CORRUPT), no space left (STORAGE_FULL), or anything else (STORAGE). SQLite's result
// codes, Node's errno codes and PostgreSQL's SQLSTATEs are all read from `code`, on the error or on
// the errors it was caused by.
import { isMemoryError, MemoryError, type MemoryErrorOptions } from "@claw/memory-api";

/** The MemoryError code of a storage engine's failure: a damaged file, no space left, or anything else. */
export type StorageFailureCode = "STORAGE" | "CORRUPT" | "STORAGE_FULL";

/** PostgreSQL: data_corrupted, index_corrupted. */
const POSTGRES_CORRUPT = new Set(["XX001", "XX002"]);
/** PostgreSQL: disk_full. */
const POSTGRES_FULL = new Set(["53100"]);

/** The code of the first error in `error`'s cause chain that says CORRUPT or STORAGE_FULL. */
export function storageFailureCode(error: unknown): StorageFailureCode {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && typeof current === "object" && current !== null; depth += 1) {
    if (isMemoryError(current) && (current.code === "CORRUPT" || current.code === "STORAGE_FULL")) {
      return current.code;
    }
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string") {
      if (code.startsWith("SQLITE_CORRUPT") || code === "SQLITE_NOTADB" || POSTGRES_CORRUPT.has(code)) {
        return "CORRUPT";
      }
      if (code === "SQLITE_FULL" || code === "ENOSPC" || code === "EDQUOT" || POSTGRES_FULL.has(code)) {
        return "STORAGE_FULL";
      }
    }
    current = (current as { cause?: unknown }).cause;
  }
  return "STORAGE";
}

/**
 * A failure of the store as a MemoryError: its code from storageFailureCode, the message prefixed
 * with `what`. MemoryErrors pass through unchanged.
 */
export function storageFailure(
  error: unknown,
  what = "storage failure",
  options: Omit<MemoryErrorOptions, "cause"> = {},
): MemoryError {
  if (isMemoryError(error)) return error;
  const code = storageFailureCode(error);
  const message = error instanceof Error ? error.message : String(error);
  return new MemoryError(code, `${what}: ${message}`, {
    ...options,
    cause: error,
    ...(code === "STORAGE_FULL" ? { retryable: true } : {}),
  });
}
