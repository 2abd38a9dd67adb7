import type { EntryWrite } from "@claw/memory-core";

/**
 * Writes in order, cut into chunks of at most `maxRows` that one upsert statement each takes. A
 * chunk never holds the same (namespace, key) or caller id twice (an upsert cannot touch a row
 * twice, and a later write must see an earlier one exactly as one-by-one writes would), nor writes
 * of two conflict rules (skipExisting, keepCreatedAt are the statement's).
 */
export function* writeChunks(writes: Iterable<EntryWrite>, maxRows: number): Generator<EntryWrite[]> {
  let chunk: EntryWrite[] = [];
  const keys = new Set<string>();
  const ids = new Set<string>();
  for (const write of writes) {
    const key = `${write.namespace}\u0000${write.key}`;
    const first = chunk[0];
    if (
      first !== undefined &&
      (chunk.length >= maxRows ||
        keys.has(key) ||
        (write.idFromCaller && ids.has(write.id)) ||
        (first.skipExisting === true) !== (write.skipExisting === true) ||
        first.keepCreatedAt !== write.keepCreatedAt)
    ) {
      yield chunk;
      chunk = [];
      keys.clear();
      ids.clear();
    }
    chunk.push(write);
    keys.add(key);
    if (write.idFromCaller) ids.add(write.id);
  }
  if (chunk.length > 0) yield chunk;
}

/** (namespace, key) order: two servers upserting overlapping keys lock rows in the same order. */
export function byRef(a: EntryWrite, b: EntryWrite): number {
  return a.namespace === b.namespace ? compare(a.key, b.key) : compare(a.namespace, b.namespace);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
