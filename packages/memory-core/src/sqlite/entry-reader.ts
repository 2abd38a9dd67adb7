// The read path of SqliteMemory (get, list, count, topCoreMemories, export): each call validates its
// arguments and reads under the storage guard, so SQLite failures surface as STORAGE.
import type {
  ExportFilter,
  ListOptions,
  MemoryCategory,
  MemoryEntry,
  NamespaceOption,
} from "@claw/memory-api";
import type { MemorySettings } from "../config/config-schema.js";
import * as check from "../validate-input.js";
import { rowToEntry } from "./entry-row.js";
import { exportPages } from "./export-pages.js";
import * as read from "./read-entries.js";
import { exportFilterOf } from "./read-input.js";
import type { StatementCache } from "./statement-cache.js";
import type { StorageGuard } from "./storage-guard.js";

export interface EntryReader {
  get(key: string, options: NamespaceOption): MemoryEntry | null;
  list(options: ListOptions): MemoryEntry[];
  count(options: { namespace?: string; category?: MemoryCategory }): number;
  topCoreMemories(limit: number, options: NamespaceOption): MemoryEntry[];
  export(filter: ExportFilter): MemoryEntry[];
  /** Validates `filter` now; reads page by page as the stream is consumed. */
  exportStream(filter: ExportFilter): AsyncIterable<MemoryEntry>;
}

export function createEntryReader(
  statements: StatementCache,
  settings: MemorySettings,
  guard: StorageGuard,
): EntryReader {
  return {
    get: (key, options) =>
      guard(() =>
        read.getEntry(
          statements,
          check.namespaceOf(options.namespace, "namespace", false),
          check.requireText(key, "key", 4096),
        ),
      ),

    list: (options) =>
      guard(() =>
        read.listEntries(
          statements,
          {
            namespace: check.namespaceOf(options.namespace, "namespace", true),
            categories:
              options.category === undefined ? undefined : [check.categoryOf(options.category, "category")],
            sessionId: check.optionalText(options.sessionId, "sessionId"),
          },
          check.limitOf(options.limit, "limit", 100, 10_000),
          check.offsetOf(options.offset, "offset"),
        ),
      ),

    count: (options) =>
      guard(() =>
        read.countEntries(
          statements,
          options.namespace === undefined
            ? undefined
            : check.namespaceOf(options.namespace, "namespace", true),
          options.category === undefined ? undefined : check.categoryOf(options.category, "category"),
        ),
      ),

    topCoreMemories: (limit, options) =>
      guard(() =>
        read.topCore(
          statements,
          check.namespaceOf(options.namespace, "namespace", false),
          check.limitOf(limit, "limit", 10, settings.recallLimitMax),
        ),
      ),

    export(filter) {
      const { where, withEmbeddings } = guard(() => exportFilterOf(filter));
      return guard(() => read.exportEntries(statements, where, withEmbeddings));
    },

    exportStream(filter) {
      const { where, withEmbeddings } = guard(() => exportFilterOf(filter));
      return exportPages(
        (afterRid, limit) => guard(() => read.exportPage(statements, where, withEmbeddings, afterRid, limit)),
        (row) => rowToEntry(row),
      );
    },
  };
}
