import type { MemoryEntry } from "@claw/memory-api";

/** A claw_memories row as the pool returns it (pool.ts parses bigints and timestamps). */
export interface PgEntryRow {
  rid: number;
  id: string;
  key: string;
  content: string;
  category: string;
  namespace: string;
  session_id: string | null;
  importance: number | null;
  superseded_by: string | null;
  created_at: string;
  updated_at: string;
  source_path: string | null;
  source_start: number | null;
  source_end: number | null;
  embedding?: number[] | null;
}

/** The column list for reading entries, with or without their vectors (the table aliased `m`). */
export function entryColumns(withEmbedding: boolean): string {
  const base =
    "m.rid, m.id, m.key, m.content, m.category, m.namespace, m.session_id, m.importance, m.superseded_by, " +
    "m.created_at, m.updated_at, m.source_path, m.source_start, m.source_end";
  return withEmbedding ? `${base}, m.embedding` : base;
}

export function rowToEntry(row: PgEntryRow, score?: number): MemoryEntry {
  const entry: MemoryEntry = {
    id: row.id,
    key: row.key,
    content: row.content,
    category: row.category,
    namespace: row.namespace,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    timestamp: row.updated_at,
  };
  if (row.session_id !== null) entry.sessionId = row.session_id;
  if (row.importance !== null) entry.importance = row.importance;
  if (row.superseded_by !== null) entry.supersededBy = row.superseded_by;
  if (row.source_path !== null) {
    entry.source = { path: row.source_path, startLine: row.source_start ?? 1, endLine: row.source_end ?? 1 };
  }
  if (score !== undefined) entry.score = score;
  if (row.embedding) entry.embedding = Float32Array.from(row.embedding);
  return entry;
}
