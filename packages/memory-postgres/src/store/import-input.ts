import type { ImportOptions, MemoryEntry } from "@claw/memory-api";
import { type EntryWrite, importInputOf, type MemorySettings } from "@claw/memory-core";
import type { EntryRefPair } from "./delete-entries.js";
import { refsOf } from "./request-input.js";
import { assertStorableEntry } from "./text-guard.js";

/**
 * import()'s arguments, every entry validated (core's importInputOf, plus U+0000, which PostgreSQL
 * text cannot hold) before anything is written, so bad input changes nothing. Vectors are kept
 * when they have `dimensions`.
 */
export async function importWritesOf(
  entries: Iterable<Partial<MemoryEntry>> | AsyncIterable<Partial<MemoryEntry>>,
  options: ImportOptions,
  context: { settings: MemorySettings; now: Date; newId: () => string; dimensions?: number },
): Promise<{ writes: EntryWrite[]; removals: EntryRefPair[] }> {
  return importInputOf(entries, options, {
    settings: context.settings,
    now: () => context.now,
    newId: context.newId,
    dimensions: () => context.dimensions,
    checkEntry: assertStorableEntry,
    // Refs holding U+0000 name nothing stored here: they are dropped, not refused.
    refsOf: (refs, field) => refsOf(refs, field).map(([namespace, key]) => [namespace, key]),
  });
}
