import type { Memory, MemoryEntry } from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";
import * as check from "./validate-input.js";

/** Options of migrateMemory. */
export interface MigrateMemoryOptions {
  /** Entries per import (one transaction each). Default 500. */
  batchSize?: number;
  /** Told after each batch: entries now in the target, of all to copy. */
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
}

/** What migrateMemory copied. */
export interface MigrateMemoryReport {
  /** Entries in the source. */
  total: number;
  /** Entries written to the target by this run. */
  copied: number;
  /** Entries the target already held unchanged (an earlier, interrupted run copied them). */
  skipped: number;
}

/**
 * Copies every entry of `from` into `to` (e.g. SQLite → PostgreSQL): ids, timestamps, sessions,
 * sources and superseded links as they are, and vectors when the target's provider has their
 * dimensions (otherwise the target embeds the entries). Batches commit one by one, and a run
 * skips what the target already holds unchanged, so an interrupted migration resumes where it
 * stopped. Ends with a check that every source entry is in the target (STORAGE otherwise).
 */
export async function migrateMemory(
  from: Memory,
  to: Memory,
  options: MigrateMemoryOptions = {},
): Promise<MigrateMemoryReport> {
  const batchSize = check.limitOf(options.batchSize, "batchSize", 500, 100_000);
  const entries = await from.export({ includeEmbeddings: true });
  options.signal?.throwIfAborted();
  const present = new Map((await to.export()).map((e) => [refOf(e), e]));
  const todo = entries.filter((e) => !sameEntry(present.get(refOf(e)), e));
  const total = entries.length;
  let done = total - todo.length;
  options.onProgress?.(done, total);
  for (let i = 0; i < todo.length; i += batchSize) {
    options.signal?.throwIfAborted();
    const batch = todo.slice(i, i + batchSize).map(({ score: _, ...entry }) => entry);
    await to.import(batch);
    done += batch.length;
    options.onProgress?.(done, total);
  }
  await to.flush();
  const copied = new Set((await to.export()).map(refOf));
  const missing = entries.filter((e) => !copied.has(refOf(e))).length;
  if (missing > 0) {
    throw new MemoryError(
      "STORAGE",
      `migration incomplete: ${missing} of ${total} entries are missing from the target`,
    );
  }
  return { total, copied: todo.length, skipped: total - todo.length };
}

function refOf(entry: MemoryEntry): string {
  return `${entry.namespace}\u0000${entry.key}`;
}

/** The target copy is the source entry as of this run (a later edit of either is copied again). */
function sameEntry(target: MemoryEntry | undefined, source: MemoryEntry): boolean {
  return (
    target !== undefined &&
    target.id === source.id &&
    target.updatedAt === source.updatedAt &&
    target.content === source.content
  );
}
