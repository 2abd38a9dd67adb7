import { randomUUID } from "node:crypto";
import type {
  BackupReport,
  Memory,
  MemoryEntry,
  MemoryStatus,
  MemoryVersion,
  StoreOptions,
} from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";
import { backupPathOf } from "./facade/backup-call.js";
import type { MemoryContext } from "./memory-context.js";
import * as check from "./validate-input.js";

/**
 * The fallback when SQLite cannot open (or `backend = "none"`): validates input like the real
 * store, keeps nothing, finds nothing, and says why in status().
 */
export class NoneMemory implements Memory {
  readonly name = "none";

  constructor(
    private readonly reason = 'memory is disabled (backend = "none")',
    private readonly beforeClose?: (memory: NoneMemory) => Promise<void>,
    /** What createMemory knew when it made the memory (memoryContextOf). */
    readonly context?: MemoryContext,
  ) {}

  async store(key: string, content: string, options: StoreOptions = {}): Promise<MemoryEntry> {
    check.optionsOf(options, "options");
    check.requireText(key, "key", 4096);
    check.requireText(content, "content");
    const now = new Date().toISOString();
    const entry: MemoryEntry = {
      id: randomUUID(),
      key,
      content,
      category: check.categoryOf(options.category, "category"),
      namespace: check.namespaceOf(options.namespace, "namespace", false),
      createdAt: now,
      updatedAt: now,
      timestamp: now,
    };
    if (options.sessionId !== undefined)
      entry.sessionId = check.requireText(options.sessionId, "sessionId", 1024);
    const importance = check.importanceOf(options.importance, "importance");
    if (importance !== undefined) entry.importance = importance;
    return entry;
  }

  /** Always null: nothing is kept. */
  async get(): Promise<MemoryEntry | null> {
    return null;
  }
  async recall(query: string): Promise<MemoryEntry[]> {
    if (typeof query !== "string") check.requireText(query, "query");
    return [];
  }
  /** Always empty: nothing is kept. */
  async list(): Promise<MemoryEntry[]> {
    return [];
  }
  async forget(): Promise<boolean> {
    return false;
  }
  async forgetMany(): Promise<number> {
    return 0;
  }
  async history(): Promise<MemoryVersion[]> {
    return [];
  }
  async restore(key: string, version: number): Promise<MemoryEntry> {
    check.requireText(key, "key", 4096);
    throw new MemoryError("NOT_FOUND", `no version ${String(version)} of "${key}" is kept (${this.reason})`);
  }
  async purgeExpired(): Promise<number> {
    return 0;
  }
  async purgeNamespace(): Promise<number> {
    return 0;
  }
  async purgeSession(): Promise<number> {
    return 0;
  }
  /** Always 0. */
  async count(): Promise<number> {
    return 0;
  }
  /** Always empty. */
  async export(): Promise<MemoryEntry[]> {
    return [];
  }
  exportStream(): AsyncIterable<MemoryEntry> {
    return (async function* () {})();
  }
  async import(): Promise<number> {
    return 0;
  }
  /** Always empty. */
  async topCoreMemories(): Promise<MemoryEntry[]> {
    return [];
  }
  /** Always false: there is no store. */
  async healthCheck(): Promise<boolean> {
    return false;
  }
  async backup(path: string): Promise<BackupReport> {
    backupPathOf(path);
    throw new MemoryError("UNAVAILABLE", `there is no store to back up (${this.reason})`);
  }
  /** An empty store with no search at all, and the reason in `warnings`. */
  async status(): Promise<MemoryStatus> {
    return { ...emptyStatus(this.name, 0), warnings: [this.reason] };
  }
  /** Nothing to reindex: 0. */
  async reindex(): Promise<number> {
    return 0;
  }
  /** Nothing to embed: 0. */
  async backfillEmbeddings(): Promise<number> {
    return 0;
  }
  async flush(): Promise<void> {}
  async close(): Promise<void> {
    await this.beforeClose?.(this);
  }
}

/** A status with nothing counted and no search: NoneMemory's, and a damaged store's when its counts cannot be read. */
export function emptyStatus(backend: string, schemaVersion: number): MemoryStatus {
  return {
    backend,
    entries: 0,
    namespaces: 0,
    pendingEmbeddings: 0,
    missingEmbeddings: 0,
    embedding: null,
    vector: "none",
    fts: false,
    schemaVersion,
  };
}
