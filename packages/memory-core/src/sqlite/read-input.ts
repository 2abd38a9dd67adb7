// Validation and normalisation of SqliteMemory's read options (recall, export) into the EntryFilter
// and RecallRequest the queries take. Each failure is INVALID_INPUT naming the option.
import type { ExportFilter, RecallOptions } from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";
import type { MemorySettings } from "../config/config-schema.js";
import * as check from "../validate-input.js";
import type { EntryFilter } from "./entry-filter.js";
import type { RecallRequest } from "./recall-pipeline.js";

/** Longer queries are cut to this many characters. */
const MAX_QUERY_LENGTH = 65_536;

/** The filter options recall and export share; `allowAll` accepts namespace "*". */
export function filterOf(
  options: Omit<RecallOptions, "limit" | "mode"> & { includeSuperseded?: boolean },
  allowAll: boolean,
): EntryFilter {
  return {
    namespace: check.namespaceOf(options.namespace, "namespace", allowAll),
    sessionId: check.optionalText(options.sessionId, "sessionId"),
    since: check.dateOf(options.since, "since"),
    until: check.dateOf(options.until, "until"),
    categories: check.categoriesOf(options.categories, "categories"),
    includeSuperseded: check.optionalBoolean(options.includeSuperseded, "includeSuperseded") ?? false,
  };
}

/** export() and exportStream(): every namespace and superseded entries unless narrowed. */
export function exportFilterOf(filter: ExportFilter): { where: EntryFilter; withEmbeddings: boolean } {
  return {
    where: {
      ...filterOf({ ...filter, namespace: filter.namespace ?? "*", includeSuperseded: true }, true),
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
): RecallRequest {
  if (typeof query !== "string") throw MemoryError.invalidInput("query", "expected a string");
  return {
    query: query.length > MAX_QUERY_LENGTH ? query.slice(0, MAX_QUERY_LENGTH) : query,
    limit: check.limitOf(options.limit, "limit", 5, settings.recallLimitMax),
    mode: options.mode ?? settings.searchMode,
    filter: filterOf(options, true),
    minScore: check.optionalNumber(options.minScore, "minScore"),
    withEmbeddings: check.optionalBoolean(options.withEmbeddings, "withEmbeddings") ?? false,
    signal: options.signal,
    now: check.instantOf(options.now, "now"),
  };
}

export function checkSearchMode(mode: RecallRequest["mode"]): void {
  if (!["hybrid", "embedding", "bm25"].includes(mode)) {
    throw MemoryError.invalidInput("mode", `expected "hybrid", "embedding" or "bm25", got ${String(mode)}`);
  }
}
