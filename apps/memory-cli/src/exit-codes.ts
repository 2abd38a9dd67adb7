import { isMemoryError, type MemoryErrorCode } from "@claw/memory-api";

/** Exit statuses; a damaged store and a full disk each have their own, so scripts can tell them apart. */
export const EXIT = { ok: 0, failure: 1, usage: 2, notFound: 3, corrupt: 4, storageFull: 5 } as const;

/** Every MemoryError code's exit status, in one place. */
const EXIT_OF_CODE: Record<MemoryErrorCode, number> = {
  INVALID_INPUT: EXIT.usage,
  NOT_FOUND: EXIT.notFound,
  CONFLICT: EXIT.failure,
  STORAGE: EXIT.failure,
  CORRUPT: EXIT.corrupt,
  STORAGE_FULL: EXIT.storageFull,
  PROVIDER: EXIT.failure,
  PROVIDER_AUTH: EXIT.failure,
  RATE_LIMITED: EXIT.failure,
  TIMEOUT: EXIT.failure,
  UNAVAILABLE: EXIT.failure,
  UNAUTHORIZED: EXIT.failure,
  FORBIDDEN: EXIT.failure,
};

/** What to do next, per code; shown under the error message. */
const HINT_OF_CODE: Partial<Record<MemoryErrorCode, string>> = {
  NOT_FOUND: "`claw-memory list` shows the keys there are (add --namespace for another namespace).",
  STORAGE: "check that the workspace folder is writable (`claw-memory status`).",
  CORRUPT:
    "the database file is damaged: `claw-memory doctor` says what is hit, `doctor --repair` rebuilds the indexes, `doctor --salvage OUT` copies what can still be read (or `claw-memory restore BACKUP`).",
  STORAGE_FULL:
    "the disk (or max_database_mb) is full: nothing was written; free space on the disk, or erase entries with `claw-memory purge`, and run the command again (reads keep working).",
  PROVIDER_AUTH:
    "check the API key: OPENAI_API_KEY, OPENROUTER_API_KEY, GEMINI_API_KEY or VOYAGE_API_KEY (or [providers.<name>] api_key).",
  RATE_LIMITED: "the provider is rate limiting: wait and run the command again.",
  TIMEOUT: "the provider did not answer in time: try again, or raise embedding_timeout_ms.",
  UNAVAILABLE: "the message above says what to start, install or change.",
};

/** A mistake in how the command was called (exit 2). */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

/** The process exit code for an error: usage errors, each MemoryError code, anything else. */
export function exitCodeOf(error: unknown): number {
  if (error instanceof UsageError) return EXIT.usage;
  if (isMemoryError(error)) return EXIT_OF_CODE[error.code] ?? EXIT.failure;
  return EXIT.failure;
}

export function hintOf(error: unknown): string | undefined {
  if (!isMemoryError(error)) return undefined;
  if (error.code === "RATE_LIMITED" && error.retryAfterSeconds !== undefined) {
    return `the provider is rate limiting: wait ${error.retryAfterSeconds} s and run the command again.`;
  }
  return HINT_OF_CODE[error.code];
}

/** The code shown for an error: the MemoryError code, USAGE, or ERROR. */
export function codeOf(error: unknown): string {
  if (error instanceof UsageError) return "USAGE";
  return isMemoryError(error) ? error.code : "ERROR";
}
