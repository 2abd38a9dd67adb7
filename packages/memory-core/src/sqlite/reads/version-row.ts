import type { MemoryChange, MemoryVersion } from "@claw/memory-api";
import { addOptionalFields, type OptionalColumns } from "./entry-row.js";

/** A version as both stores read it: the entry's state columns and the change that made it. */
export interface VersionRow extends OptionalColumns {
  namespace: string;
  key: string;
  id: string;
  content: string;
  category: string;
  version: number;
  action: string;
  actor: string;
  at: string;
  /** 1/true for a tombstone. */
  deleted: number | boolean;
  /** 1/true for the live row. */
  current: number | boolean;
}

/** A history row as the MemoryVersion that Memory.history returns. */
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
  addOptionalFields(version, row);
  return version;
}
