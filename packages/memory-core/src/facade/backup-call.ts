// The façade's backup(): the path and options validated, then the backend's own backup (SQLite's
// online copy, PostgreSQL's NDJSON); UNAVAILABLE for a backend that has none.
import { resolve } from "node:path";
import type { BackupOptions, BackupReport, MemoryBackend } from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";
import * as check from "../validate-input.js";

/** `path` as an absolute path: INVALID_INPUT naming `path` when it is not a non-empty string. */
export function backupPathOf(path: unknown): string {
  const text = check.requireText(path, "path", 4096);
  if (text.includes("\0")) throw MemoryError.invalidInput("path", "must not contain a NUL character");
  return resolve(text);
}

/** Runs `backend`'s backup to `path` (checked first, whatever the backend). */
export async function backupVia(
  backend: MemoryBackend,
  path: string,
  options: BackupOptions,
  now: Date,
): Promise<BackupReport> {
  check.optionsOf(options, "options");
  const target = backupPathOf(path);
  const { onProgress } = options;
  if (onProgress !== undefined && typeof onProgress !== "function")
    throw MemoryError.invalidInput("onProgress", "expected a function");
  if (backend.backup === undefined) {
    throw new MemoryError("UNAVAILABLE", `the ${backend.name} store cannot take a backup`);
  }
  return backend.backup({
    path: target,
    aliveAt: now.toISOString(),
    ...(onProgress === undefined ? {} : { onProgress }),
  });
}
