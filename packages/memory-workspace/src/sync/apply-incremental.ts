// Writes a plan trusting the manifest: one import per changed file, one forgetMany for deletions.
import type { EntryRef, Memory } from "@claw/memory-api";
import type { Change, SyncPlan } from "./plan-sync.js";

export interface WriteTally {
  added: number;
  updated: number;
  moved: number;
  removed: number;
  entriesWritten: number;
  entriesRemoved: number;
  /** Changes whose entries were written. */
  written: Change[];
}

/**
 * Each changed file replaces its entries in one transaction: `import(newEntries, { remove })`
 * where `remove` is the keys it had and no longer has (a moved file: all of its old keys). Keys
 * it keeps are upserted, which keeps their vectors when the text did not change.
 */
export async function applyIncremental(
  memory: Memory,
  namespace: string,
  plan: SyncPlan,
): Promise<WriteTally> {
  const tally: WriteTally = {
    added: 0,
    updated: 0,
    moved: 0,
    removed: 0,
    entriesWritten: 0,
    entriesRemoved: 0,
    written: [],
  };
  for (const change of plan.changes) {
    const keep = new Set(change.record.keys);
    const remove = (change.prev?.keys ?? []).filter((key) => !keep.has(key));
    tally.entriesWritten += await memory.import(change.entries, { remove: refs(remove, namespace) });
    tally.entriesRemoved += remove.length;
    tally.written.push(change);
    if (change.movedFrom !== undefined) tally.moved++;
    else if (change.prev === undefined) tally.added++;
    else tally.updated++;
  }
  const gone = plan.deleted.flatMap((d) => d.record.keys);
  if (gone.length > 0) tally.entriesRemoved += await memory.forgetMany(refs(gone, namespace));
  tally.removed = plan.deleted.length;
  return tally;
}

export function refs(keys: readonly string[], namespace: string): EntryRef[] {
  return keys.map((key) => ({ key, namespace }));
}
