import type { ImportOptions, MemoryEntry } from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";
import { type EntryWrite, type MemorySettings, toEntryWrite } from "@claw/memory-core";
import type { EntryRefPair } from "./delete-entries.js";
import { refsOf } from "./request-input.js";
import { assertStorableEntry } from "./text-guard.js";

/**
 * import()'s arguments, every entry validated (core's toEntryWrite, plus U+0000) before anything
 * is written, so bad input changes nothing. Vectors are kept when they have `dimensions`.
 */
export async function importWritesOf(
  entries: Iterable<Partial<MemoryEntry>> | AsyncIterable<Partial<MemoryEntry>>,
  options: ImportOptions,
  context: { settings: MemorySettings; now: Date; newId: () => string; dimensions?: number },
): Promise<{ writes: EntryWrite[]; removals: EntryRefPair[] }> {
  if (entries === null || typeof entries !== "object")
    throw MemoryError.invalidInput("entries", "expected an iterable");
  const onConflict = options.onConflict ?? "replace";
  if (onConflict !== "replace" && onConflict !== "skip")
    throw MemoryError.invalidInput("onConflict", `expected "replace" or "skip", got ${String(onConflict)}`);
  const writes: EntryWrite[] = [];
  for await (const entry of entries) {
    const prefix = `entries[${writes.length}]`;
    const { settings, now, newId, dimensions } = context;
    const write = toEntryWrite(entry, prefix, settings, now, newId, true, dimensions);
    assertStorableEntry(write, prefix);
    writes.push(onConflict === "skip" ? { ...write, skipExisting: true } : write);
  }
  const removals = options.remove === undefined ? [] : refsOf(options.remove, "remove");
  return { writes, removals };
}
