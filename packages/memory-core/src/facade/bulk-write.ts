import type { BulkWriteResult, BulkWrites, EntryRefPair, MemoryBackend, RemovalNote } from "@claw/memory-api";

/**
 * An import's write: the backend's writeBulk() when it has one (no entry built per write, each
 * write made as it is written), else its write() of every write made first, counted.
 */
export async function writeBulk(
  backend: MemoryBackend,
  writes: BulkWrites,
  removals: readonly EntryRefPair[],
  removedAs: RemovalNote,
): Promise<BulkWriteResult> {
  if (backend.writeBulk !== undefined) return backend.writeBulk(writes, removals, removedAs);
  const written = await backend.write([...writes], removals, removedAs);
  return { written: written.length, jobs: written.flatMap((w) => (w.job === null ? [] : [w.job])) };
}
