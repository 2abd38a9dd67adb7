// Writes a plan without trusting the manifest: every indexed entry is compared with the database.
import type { Memory, MemoryEntry } from "@claw/memory-api";
import { refs, type WriteTally } from "./apply-incremental.js";
import { isIndexKey } from "./entry-keys.js";
import type { IndexedEntry } from "./file-entries.js";
import type { SyncPlan } from "./plan-sync.js";

/**
 * Used when there is no manifest, the database does not match it (brain.db deleted or restored)
 * or a full sync was asked for. Reads the namespace once, writes only entries that differ from
 * what the files say, and deletes index entries no file accounts for. Entries of files that could
 * not be read are left alone. Each file is still one transaction.
 */
export async function applyReconcile(memory: Memory, namespace: string, plan: SyncPlan): Promise<WriteTally> {
  const tally: WriteTally = {
    added: 0,
    updated: 0,
    moved: 0,
    removed: 0,
    entriesWritten: 0,
    entriesRemoved: 0,
    written: [],
  };
  const existing = new Map<string, MemoryEntry>();
  for (const entry of await memory.export({ namespace }))
    if (isIndexKey(entry.key)) existing.set(entry.key, entry);
  const byPath = new Map<string, string[]>();
  for (const key of existing.keys()) {
    const path = pathOfKey(key);
    byPath.set(path, [...(byPath.get(path) ?? []), key]);
  }
  for (const change of plan.changes) {
    const keep = new Set(change.record.keys);
    const had = byPath.get(change.path) ?? [];
    byPath.delete(change.path);
    const stale = had.filter((key) => !keep.has(key));
    const differing = change.entries.filter((entry) => !matches(existing.get(entry.key), entry));
    tally.written.push(change);
    if (differing.length === 0 && stale.length === 0) continue;
    tally.entriesWritten += await memory.import(differing, { remove: refs(stale, namespace) });
    tally.entriesRemoved += stale.length;
    if (had.length === 0) tally.added++;
    else tally.updated++;
  }
  for (const path of plan.unreadable) byPath.delete(path);
  for (const kept of Object.values(plan.kept)) for (const path of Object.keys(kept)) byPath.delete(path);
  const orphans = [...byPath.values()].flat();
  if (orphans.length > 0) tally.entriesRemoved += await memory.forgetMany(refs(orphans, namespace));
  tally.removed = byPath.size;
  return tally;
}

/** The file a key indexes: `file:<path>#<n>`, `fact:<path>#L<n>`, `session:<path>#<n>`. */
export function pathOfKey(key: string): string {
  return key.slice(key.indexOf(":") + 1, key.lastIndexOf("#"));
}

function matches(current: MemoryEntry | undefined, wanted: IndexedEntry): boolean {
  return (
    current !== undefined &&
    current.content === wanted.content &&
    current.category === wanted.category &&
    current.createdAt === wanted.createdAt &&
    current.updatedAt === wanted.updatedAt &&
    current.supersededBy === undefined &&
    (current.sessionId ?? undefined) === wanted.sessionId &&
    current.context === wanted.context &&
    current.source?.path === wanted.source.path &&
    current.source?.startLine === wanted.source.startLine &&
    current.source?.endLine === wanted.source.endLine
  );
}
