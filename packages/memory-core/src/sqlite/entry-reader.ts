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
import {
  countRequestOf,
  entryRefOf,
  exportFilterOf,
  listRequestOf,
  topCoreRequestOf,
} from "../facade/read-requests.js";
import { rowToEntry } from "./entry-row.js";
import { exportPages } from "./export-pages.js";
import * as read from "./read-entries.js";
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
      guard(() => {
        const ref = entryRefOf(key, options);
        return read.getEntry(statements, ref.namespace, ref.key);
      }),

    list: (options) =>
      guard(() => {
        const { filter, limit, offset } = listRequestOf(options);
        return read.listEntries(statements, filter, limit, offset);
      }),

    count: (options) =>
      guard(() => {
        const { namespace, category } = countRequestOf(options);
        return read.countEntries(statements, namespace, category);
      }),

    topCoreMemories: (limit, options) =>
      guard(() => {
        const request = topCoreRequestOf(limit, options, settings);
        return read.topCore(statements, request.namespace, request.limit);
      }),

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
