import type { MemoryEntry } from "@claw/memory-api";
import { rowToEntry as coreRowToEntry, type EntryRow, entryColumns } from "@claw/memory-core";

/** A claw_memories row as the pool returns it (pool.ts parses bigints and timestamps; pgvector
 *  vectors arrive as number arrays). The columns and their mapping are core's. */
export type PgEntryRow = EntryRow<number[]>;

export { entryColumns };

export function rowToEntry(row: PgEntryRow, score?: number): MemoryEntry {
  return coreRowToEntry(row, score, (vector) => Float32Array.from(vector));
}
