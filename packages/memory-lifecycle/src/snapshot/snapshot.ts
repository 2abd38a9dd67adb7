import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import type { Memory } from "@claw/memory-api";
import { isMemoryError, MemoryError } from "@claw/memory-api";
import { writeFileAtomic } from "@claw/memory-core";
import { loggerOf } from "../support/memory-defaults.js";
import { parseSnapshot, renderSnapshot, SNAPSHOT_FILE } from "./snapshot-format.js";

/** What a snapshot export or hydration did: the file and how many core memories. */
export interface SnapshotResult {
  path: string;
  /** Core memories in the snapshot. */
  count: number;
  /** False when the memory held no core entries and an existing snapshot was left untouched. */
  written: boolean;
}

/**
 * Writes every core memory (all namespaces, superseded ones included) to
 * `{workspaceDir}/MEMORY_SNAPSHOT.md`, atomically. A store without core memories never replaces an
 * existing snapshot: that is what a lost database looks like, and the snapshot is its backup.
 */
export async function exportSnapshot(memory: Memory, workspaceDir: string): Promise<SnapshotResult> {
  if (typeof workspaceDir !== "string" || workspaceDir === "")
    throw MemoryError.invalidInput("workspaceDir", "must not be empty");
  const path = join(workspaceDir, SNAPSHOT_FILE);
  const entries = await memory.export({ category: "core" });
  if (entries.length === 0 && (await exists(path))) return { path, count: 0, written: false };
  await writeFileAtomic(path, renderSnapshot(entries));
  return { path, count: entries.length, written: true };
}

/**
 * Indexes the snapshot's memories into `memory` with their original timestamps; keys that already
 * exist are left alone (INSERT OR IGNORE). Returns how many were added (0 without a snapshot).
 */
export async function hydrateFromSnapshot(memory: Memory, workspaceDir: string): Promise<number> {
  if (typeof workspaceDir !== "string" || workspaceDir === "")
    throw MemoryError.invalidInput("workspaceDir", "must not be empty");
  let text: string;
  try {
    text = await readFile(join(workspaceDir, SNAPSHOT_FILE), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return 0;
    throw new MemoryError("STORAGE", `cannot read the snapshot: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const { entries, errors } = parseSnapshot(text);
  for (const problem of errors) loggerOf(memory).warn(`snapshot: skipped a damaged section (${problem})`);
  if (entries.length === 0) return 0;
  try {
    return await memory.import(entries, { onConflict: "skip" });
  } catch (error) {
    if (!isMemoryError(error, "INVALID_INPUT")) throw error;
  }
  // One hand-edited entry the store rejects must not cost the others.
  let added = 0;
  for (const entry of entries) {
    try {
      added += await memory.import([entry], { onConflict: "skip" });
    } catch (error) {
      if (!isMemoryError(error, "INVALID_INPUT")) throw error;
      loggerOf(memory).warn(`snapshot: skipped ${entry.key} (${(error as Error).message})`);
    }
  }
  return added;
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
