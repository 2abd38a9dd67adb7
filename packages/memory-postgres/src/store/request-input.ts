import type { EntryRef, ExportFilter, RecallOptions } from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";
import { inputChecks as check } from "@claw/memory-core";
import type { EntryRefPair } from "./delete-entries.js";
import type { EntryFilter } from "./filter-sql.js";
import { assertStorableText } from "./text-guard.js";

/** The checks of the arguments PostgresMemory's methods take, as core's checks plus U+0000. */

/**
 * Validated (namespace, key) pairs; `field` names the option in errors ("" = forget()'s own
 * arguments). A pair holding U+0000 names no stored entry, so it is left out.
 */
export function refsOf(refs: Iterable<EntryRef>, field: string): EntryRefPair[] {
  if (refs === null || typeof refs !== "object" || !(Symbol.iterator in refs))
    throw MemoryError.invalidInput(field, "expected an iterable of { key, namespace? }");
  const pairs: EntryRefPair[] = [];
  let index = 0;
  for (const ref of refs) {
    const at = field === "" ? "" : `${field}[${index++}]`;
    const name = (part: string) => (at === "" ? part : `${at}.${part}`);
    if (ref === null || typeof ref !== "object")
      throw MemoryError.invalidInput(at, "expected { key, namespace? }");
    const namespace = check.namespaceOf(ref.namespace, name("namespace"), false);
    const key = check.requireText(ref.key, name("key"), 4096);
    if (!namespace.includes("\u0000") && !key.includes("\u0000")) pairs.push([namespace, key]);
  }
  return pairs;
}

/** The filter of recall() ("*" allowed) and of export(). */
export function recallFilterOf(options: Omit<RecallOptions, "limit" | "mode">): EntryFilter {
  return storable({
    namespace: check.namespaceOf(options.namespace, "namespace", true),
    sessionId: check.optionalText(options.sessionId, "sessionId"),
    since: check.dateOf(options.since, "since"),
    until: check.dateOf(options.until, "until"),
    categories: check.categoriesOf(options.categories, "categories"),
    includeSuperseded: check.optionalBoolean(options.includeSuperseded, "includeSuperseded") ?? false,
  });
}

/** ExportFilter has one `category` and reads every namespace and superseded entry by default. */
export function exportFilterOf(filter: ExportFilter): EntryFilter {
  return storable({
    ...recallFilterOf({ ...filter, namespace: filter.namespace ?? "*" }),
    categories: filter.category === undefined ? undefined : [check.categoryOf(filter.category, "category")],
    includeSuperseded: true,
  });
}

/** Filters are compared with stored text, which never holds U+0000: such a filter is refused. */
export function storable(filter: EntryFilter): EntryFilter {
  assertStorableText(filter.namespace, "namespace");
  assertStorableText(filter.sessionId, "sessionId");
  for (const [i, category] of (filter.categories ?? []).entries()) {
    assertStorableText(category, `categories[${i}]`);
  }
  return filter;
}
