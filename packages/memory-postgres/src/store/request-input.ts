import type { EntryRef, ExportFilter, RecallOptions } from "@claw/memory-api";
import {
  checkSearchMode,
  exportFilterOf as coreExportFilterOf,
  recallRequestOf as coreRecallRequestOf,
  refsOf as coreRefsOf,
  type EntryFilter,
  entryRefOf,
  type MemorySettings,
  type RecallRequest,
} from "@claw/memory-core";
import type { EntryRefPair } from "./delete-entries.js";
import { assertStorableText } from "./text-guard.js";

// The arguments of PostgresMemory's methods: core's checks (the same INVALID_INPUT for the same
// input on every engine), plus what PostgreSQL text cannot hold (U+0000).

/**
 * Validated (namespace, key) pairs (core's refsOf); `field` names the option in errors ("" =
 * forget()'s own arguments). A pair holding U+0000 names no stored entry, so it is left out.
 */
export function refsOf(refs: Iterable<EntryRef>, field: string): EntryRefPair[] {
  if (field === "") {
    const [ref] = Array.from(refs as Iterable<EntryRef>);
    const { namespace, key } = entryRefOf(ref?.key as string, { namespace: ref?.namespace });
    return storableRef(namespace, key) ? [[namespace, key]] : [];
  }
  return coreRefsOf(refs, field).filter(([namespace, key]) => storableRef(namespace, key));
}

/** recall()'s request (core's recallRequestOf) with a filter PostgreSQL text can compare. */
export function recallRequestOf(
  query: string,
  options: RecallOptions,
  settings: MemorySettings,
): RecallRequest {
  const request = coreRecallRequestOf(query, options, settings);
  checkSearchMode(request.mode);
  storable(request.filter);
  return request;
}

/** export()'s filter (core's exportFilterOf), refused when it holds U+0000. */
export function exportFilterOf(filter: ExportFilter): { where: EntryFilter; withEmbeddings: boolean } {
  const request = coreExportFilterOf(filter);
  storable(request.where);
  return request;
}

function storableRef(namespace: string, key: string): boolean {
  return !namespace.includes("\u0000") && !key.includes("\u0000");
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
