// Validation of a Memory's write input that spans many entries (import, forgetMany): everything
// is checked before anything is written, so bad input changes nothing.
import type { EntryRef, ImportOptions, MemoryEntry } from "@claw/memory-api";
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
  /** A backend's own check of each validated entry (e.g. PostgreSQL refusing U+0000); absent: none. */
  checkEntry?: (write: EntryWrite, field: string) => void;
  /** How the `remove` refs are validated; default refsOf. */
  refsOf?: (refs: Iterable<EntryRef>, field: string) => [string, string][];
}

/** import()'s entries and options, validated: the writes and the (namespace, key) pairs to remove. */
export async function importInputOf(
  entries: Iterable<Partial<MemoryEntry>> | AsyncIterable<Partial<MemoryEntry>>,
  options: ImportOptions,
  context: ImportContext,
): Promise<{ writes: EntryWrite[]; removals: [string, string][] }> {
  if (entries === null || typeof entries !== "object")
    throw MemoryError.invalidInput("entries", "expected an iterable");
  const onConflict = options.onConflict ?? "replace";
  if (onConflict !== "replace" && onConflict !== "skip")
    throw MemoryError.invalidInput("onConflict", `expected "replace" or "skip", got ${String(onConflict)}`);
  const action = options.action ?? null;
  if (action !== null && action !== "merge" && action !== "restore")
    throw MemoryError.invalidInput("action", `expected "merge" or "restore", got ${String(action)}`);
  const writes: EntryWrite[] = [];
  const dimensions = context.dimensions();
  const at = context.now();
  const add = (entry: Partial<MemoryEntry>) => {
    // Named only for an error: a string per entry was a measurable share of a bulk import.
    const field = () => `entries[${writes.length}]`;
    const write = toEntryWrite(entry, field, context.settings, at, context.newId, true, dimensions);
    context.checkEntry?.(write, field());
    write.change = action;
    if (onConflict === "skip") write.skipExisting = true;
    writes.push(write);
  };
  // An array (the common case) is walked without `for await`, which costs a promise per entry.
  if (Symbol.iterator in entries) for (const entry of entries) add(entry);
  else for await (const entry of entries) add(entry);
  const removals = options.remove === undefined ? [] : (context.refsOf ?? refsOf)(options.remove, "remove");
  return { writes, removals };
}
