// Validation of a Memory's write input that spans many entries (import, forgetMany): bad input
// changes nothing (an import's entries may be checked as they are written, in its transaction).
import type { BulkWrites, EntryRef, ImportOptions, MemoryEntry } from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";
import type { MemorySettings } from "../config/config-schema.js";
import type { EntryWrite } from "../sqlite/writes/upsert-entry.js";
import * as check from "../validate-input.js";
import { toEntryWrite } from "./entry-write.js";

/** Validated (namespace, key) pairs; `field` names the option in errors. */
export function refsOf(refs: Iterable<EntryRef>, field: string): [string, string][] {
  if (refs === null || typeof refs !== "object" || !(Symbol.iterator in refs))
    throw MemoryError.invalidInput(field, "expected an iterable of { key, namespace? }");
  const pairs: [string, string][] = [];
  for (const ref of refs) {
    const at = `${field}[${pairs.length}]`;
    if (ref === null || typeof ref !== "object")
      throw MemoryError.invalidInput(at, "expected { key, namespace? }");
    pairs.push([
      check.namespaceOf(ref.namespace, `${at}.namespace`, false),
      check.requireText(ref.key, `${at}.key`, 4096),
    ]);
  }
  return pairs;
}

export interface ImportContext {
  settings: MemorySettings;
  now: () => Date;
  newId: () => string;
  /** The store's vector size (undefined when keyword-only): imported vectors of another size are dropped. */
  dimensions: () => number | undefined;
  /** Who the writes are recorded as (MemoryChange.actor). */
  actor: string;
  /** A backend's own check of each validated entry (e.g. PostgreSQL refusing U+0000); absent: none. */
  checkEntry?: (write: EntryWrite, field: string) => void;
  /** How the `remove` refs are validated; default refsOf. */
  refsOf?: (refs: Iterable<EntryRef>, field: string) => [string, string][];
}

/** import()'s validated input: the writes, made as they are read (BulkWrites), and the pairs to remove. */
export interface ImportInput {
  writes: BulkWrites;
  removals: [string, string][];
}

/**
 * import()'s entries and options, validated. An array's entries are validated one at a time as
 * the writes are read, inside the write's transaction, so that each write lives only as long as
 * its own row: made first and held to the end, they filled fresh pages of the old generation
 * (100k entries: 9–12k page faults instead of 3–5k, 24 MB more peak RSS). A bad entry still
 * changes nothing: the transaction rolls back. Entries of any other iterable are validated first,
 * all of them. Options and `remove` are validated at once either way.
 */
export async function importInputOf(
  entries: Iterable<Partial<MemoryEntry>> | AsyncIterable<Partial<MemoryEntry>>,
  options: ImportOptions,
  context: ImportContext,
): Promise<ImportInput> {
  if (entries === null || typeof entries !== "object")
    throw MemoryError.invalidInput("entries", "expected an iterable");
  const onConflict = options.onConflict ?? "replace";
  if (onConflict !== "replace" && onConflict !== "skip")
    throw MemoryError.invalidInput("onConflict", `expected "replace" or "skip", got ${String(onConflict)}`);
  const action = options.action ?? null;
  if (action !== null && action !== "merge" && action !== "restore")
    throw MemoryError.invalidInput("action", `expected "merge" or "restore", got ${String(action)}`);
  const dimensions = context.dimensions();
  const at = context.now();
  const writeOf = (entry: Partial<MemoryEntry>, index: number): EntryWrite => {
    // Named only for an error: a string per entry was a measurable share of a bulk import.
    const field = () => `entries[${index}]`;
    const write = toEntryWrite(entry, field, context.settings, at, context.newId, true, dimensions);
    context.checkEntry?.(write, field());
    write.change = action;
    write.actor = context.actor;
    if (onConflict === "skip") write.skipExisting = true;
    return write;
  };
  let writes: BulkWrites;
  if (Array.isArray(entries)) writes = lazyWrites(entries as readonly Partial<MemoryEntry>[], writeOf);
  else {
    const made: EntryWrite[] = [];
    // `for await` costs a promise per entry: a sync iterable is walked without it.
    if (Symbol.iterator in entries) for (const entry of entries) made.push(writeOf(entry, made.length));
    else for await (const entry of entries) made.push(writeOf(entry, made.length));
    writes = madeWrites(made);
  }
  const removals = options.remove === undefined ? [] : (context.refsOf ?? refsOf)(options.remove, "remove");
  return { writes, removals };
}

function lazyWrites(
  entries: readonly Partial<MemoryEntry>[],
  writeOf: (entry: Partial<MemoryEntry>, index: number) => EntryWrite,
): BulkWrites {
  let contentLength = 0;
  for (const entry of entries) {
    const content = (entry as Partial<MemoryEntry> | null)?.content;
    if (typeof content === "string") contentLength += content.length;
  }
  return {
    count: entries.length,
    contentLength,
    *[Symbol.iterator]() {
      for (let i = 0; i < entries.length; i++) yield writeOf(entries[i] as Partial<MemoryEntry>, i);
    },
  };
}

/** BulkWrites over writes already made (`list`: the writes themselves). */
export function madeWrites(writes: readonly EntryWrite[]): BulkWrites & { list: readonly EntryWrite[] } {
  let contentLength = 0;
  for (const write of writes) contentLength += write.content.length;
  return {
    count: writes.length,
    contentLength,
    list: writes,
    [Symbol.iterator]: () => writes[Symbol.iterator](),
  };
}
