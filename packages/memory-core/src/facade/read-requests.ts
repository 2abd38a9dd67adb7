// Validation and normalisation of a Memory's read options (recall, list, count, export) into the
// EntryFilter and RecallRequest every storage engine takes. Each failure is INVALID_INPUT naming
// the option.
import type {
  EntryFilter,
  ExportFilter,
  ListOptions,
  MemoryCategory,
  NamespaceOption,
  RecallOptions,
  RecallRequest,
} from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";
import type { MemorySettings } from "../config/config-schema.js";
import { whereOf } from "../metadata/where-filter.js";
import { parseTimeBound } from "../text/time-bound.js";
import * as check from "../validate-input.js";

/** Longer queries are cut to this many characters. */
const MAX_QUERY_LENGTH = 65_536;

/** The filter options recall and export share; `allowAll` accepts namespace "*". */
export function filterOf(
  options: Omit<RecallOptions, "limit" | "mode"> & { includeSuperseded?: boolean },
  allowAll: boolean,
  now: Date,
): EntryFilter {
  return {
    namespace: check.namespaceOf(options.namespace, "namespace", allowAll),
    sessionId: check.optionalText(options.sessionId, "sessionId"),
    since: parseTimeBound(options.since, now, "since"),
    until: parseTimeBound(options.until, now, "until"),
    categories: check.categoriesOf(options.categories, "categories"),
    includeSuperseded: check.optionalBoolean(options.includeSuperseded, "includeSuperseded") ?? false,
    where: whereOf(options.where),
  };
}

/** export() and exportStream(): every namespace and superseded entries unless narrowed. */
export function exportFilterOf(
  filter: ExportFilter,
  now: Date,
): { where: EntryFilter; withEmbeddings: boolean } {
  return {
    where: {
      ...filterOf({ ...filter, namespace: filter.namespace ?? "*", includeSuperseded: true }, true, now),
      // ExportFilter has one `category`; filterOf reads RecallOptions' `categories`.
      categories: filter.category === undefined ? undefined : [check.categoryOf(filter.category, "category")],
    },
    withEmbeddings: check.optionalBoolean(filter.includeEmbeddings, "includeEmbeddings") ?? false,
  };
}

/** recall()'s query and options, validated; the mode is checked apart (checkSearchMode). */
export function recallRequestOf(
  query: string,
  options: RecallOptions,
  settings: MemorySettings,
  now: Date,
): RecallRequest {
  if (typeof query !== "string") throw MemoryError.invalidInput("query", "expected a string");
  // Ages (recency, and `since: "7d"`) are measured from the recall's own `now` when it has one.
  const asOf = check.instantOf(options.now, "now");
  return {
    // A query only reads: a lone surrogate (a string cut inside an emoji, say) is replaced, not refused.
    query: check.wellFormed(query.length > MAX_QUERY_LENGTH ? query.slice(0, MAX_QUERY_LENGTH) : query),
    limit: check.limitOf(options.limit, "limit", 5, settings.recallLimitMax),
    mode: options.mode ?? settings.searchMode,
    filter: filterOf(options, true, asOf ?? now),
    minScore: check.optionalNumber(options.minScore, "minScore"),
    withEmbeddings: check.optionalBoolean(options.withEmbeddings, "withEmbeddings") ?? false,
    signal: options.signal,
    now: asOf,
    explain: check.optionalBoolean(options.explain, "explain") ?? false,
  };
}

/** The search mode of a recall request: "hybrid", "embedding" or "bm25". */
export function checkSearchMode(mode: RecallRequest["mode"]): void {
  if (!["hybrid", "embedding", "bm25"].includes(mode)) {
    throw MemoryError.invalidInput("mode", `expected "hybrid", "embedding" or "bm25", got ${String(mode)}`);
  }
}

/** get() and forget(): the entry's namespace and key. */
export function entryRefOf(key: string, options: NamespaceOption): { namespace: string; key: string } {
  return {
    namespace: check.namespaceOf(options?.namespace, "namespace", false),
    key: check.requireText(key, "key", 4096),
  };
}

/** list(): the filter (namespace "*" allowed), page size (default 100, at most 10,000) and offset. */
export function listRequestOf(options: ListOptions): { filter: EntryFilter; limit: number; offset: number } {
  return {
    filter: {
      namespace: check.namespaceOf(options.namespace, "namespace", true),
      categories:
        options.category === undefined ? undefined : [check.categoryOf(options.category, "category")],
      sessionId: check.optionalText(options.sessionId, "sessionId"),
      where: whereOf(options.where),
    },
    limit: check.limitOf(options.limit, "limit", 100, 10_000),
    offset: check.offsetOf(options.offset, "offset"),
  };
}

/** count(): every namespace and category unless narrowed. */
export function countRequestOf(options: { namespace?: string; category?: MemoryCategory }): {
  namespace?: string;
  category?: MemoryCategory;
} {
  return {
    namespace:
      options.namespace === undefined ? undefined : check.namespaceOf(options.namespace, "namespace", true),
    category: options.category === undefined ? undefined : check.categoryOf(options.category, "category"),
  };
}

/** topCoreMemories(): one namespace, at most `recall_limit_max` entries (default 10). */
export function topCoreRequestOf(
  limit: number,
  options: NamespaceOption,
  settings: MemorySettings,
): { namespace: string; limit: number } {
  return {
    namespace: check.namespaceOf(options?.namespace, "namespace", false),
    limit: check.limitOf(limit, "limit", 10, settings.recallLimitMax),
  };
}
