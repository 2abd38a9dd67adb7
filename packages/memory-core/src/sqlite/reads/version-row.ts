import type { MemoryChange, MemoryVersion, Metadata } from "@claw/memory-api";

/** A version as both stores read it: the entry's state columns and the change that made it. */
export interface VersionRow {
  namespace: string;
  key: string;
  id: string;
  content: string;
  category: string;
  session_id: string | null;
  importance: number | null;
  superseded_by: string | null;
  /** JSON text (SQLite) or the parsed object (PostgreSQL jsonb); null = none. */
  metadata: string | Metadata | null;
  expires_at: string | null;
  context: string | null;
  source_path: string | null;
  source_start: number | null;
  source_end: number | null;
  version: number;
  action: string;
  actor: string;
  at: string;
  /** 1/true for a tombstone. */
  deleted: number | boolean;
  /** 1/true for the live row. */
  current: number | boolean;
}

export function versionOf(row: VersionRow): MemoryVersion {
  const version: MemoryVersion = {
    version: Number(row.version),
    at: row.at,
    action: row.action as MemoryChange,
    actor: row.actor,
    current: row.current === 1 || row.current === true,
    deleted: row.deleted === 1 || row.deleted === true,
    id: row.id,
    key: row.key,
    namespace: row.namespace,
    content: row.content,
    category: row.category,
  };
  if (row.session_id !== null) version.sessionId = row.session_id;
  if (row.importance !== null) version.importance = row.importance;
  if (row.superseded_by !== null) version.supersededBy = row.superseded_by;
  if (row.metadata !== null) {
    version.metadata =
      typeof row.metadata === "string" ? (JSON.parse(row.metadata) as Metadata) : row.metadata;
  }
  if (row.expires_at !== null) version.expiresAt = row.expires_at;
  if (row.context !== null) version.context = row.context;
  if (row.source_path !== null) {
    version.source = {
      path: row.source_path,
      startLine: row.source_start ?? 1,
      endLine: row.source_end ?? 1,
    };
  }
  return version;
}
