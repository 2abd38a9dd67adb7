import type { MemoryCategory, MemoryEntry } from "@claw/memory-api";
import type { StatementCache } from "../schema/statement-cache.js";
import { entryColumns, type MemoryRow, rowToEntry } from "./entry-row.js";
import { type EntryFilter, filterSql } from "./filter-sql.js";

/** Read-only queries over memories: get, list, export, count, top core. */

export function getEntry(
  statements: StatementCache,
  namespace: string,
  key: string,
  aliveAt: string,
): MemoryEntry | null {
  const row = statements
    .get(
      `SELECT ${entryColumns(false)} FROM memories m WHERE m.namespace = ? AND m.key = ?
         AND (m.expires_at IS NULL OR m.expires_at > ?)`,
    )
    .get(namespace, key, aliveAt) as MemoryRow | undefined;
  return row === undefined ? null : rowToEntry(row);
}

export function listEntries(
  statements: StatementCache,
  filter: EntryFilter,
  limit: number,
  offset: number,
): MemoryEntry[] {
  const where = filterSql({ ...filter, includeSuperseded: true });
  const rows = statements
    .get(
      `SELECT ${entryColumns(false)} FROM memories m WHERE 1 = 1${where.sql}
       ORDER BY m.updated_at DESC, m.rid DESC LIMIT ? OFFSET ?`,
    )
    .all(...where.params, limit, offset) as MemoryRow[];
  return rows.map((row) => rowToEntry(row));
}

export function exportEntries(
  statements: StatementCache,
  filter: EntryFilter,
  includeEmbeddings: boolean,
): MemoryEntry[] {
  const where = filterSql({ ...filter, includeSuperseded: true });
  const rows = statements
    .get(
      `SELECT ${entryColumns(includeEmbeddings)} FROM memories m WHERE 1 = 1${where.sql}
       ORDER BY m.namespace, m.created_at, m.rid`,
    )
    .all(...where.params) as MemoryRow[];
  return rows.map((row) => rowToEntry(row));
}

/** Export's entries after `afterRid`, in rid order (the order they were first stored), at most `limit`. */
export function exportPage(
  statements: StatementCache,
  filter: EntryFilter,
  includeEmbeddings: boolean,
  afterRid: number,
  limit: number,
): MemoryRow[] {
  const where = filterSql({ ...filter, includeSuperseded: true });
  return statements
    .get(
      `SELECT ${entryColumns(includeEmbeddings)} FROM memories m WHERE m.rid > ?${where.sql}
       ORDER BY m.rid LIMIT ?`,
    )
    .all(afterRid, ...where.params, limit) as MemoryRow[];
}

/**
 * Entries not expired at `aliveAt`: all of them less the expired ones, which the partial index on
 * expires_at finds without reading the others (a count with the condition would read every row).
 */
export function countEntries(
  statements: StatementCache,
  namespace: string | undefined,
  category: MemoryCategory | undefined,
  aliveAt: string,
): number {
  const where = filterSql({
    namespace,
    categories: category === undefined ? undefined : [category],
    includeSuperseded: true,
  });
  const count = (sql: string, ...params: unknown[]) =>
    (statements.get(sql).get(...params) as { n: number }).n;
  const all = count(`SELECT count(*) AS n FROM memories m WHERE 1 = 1${where.sql}`, ...where.params);
  const expired = count(
    `SELECT count(*) AS n FROM memories m WHERE m.expires_at IS NOT NULL AND m.expires_at <= ?${where.sql}`,
    aliveAt,
    ...where.params,
  );
  return all - expired;
}

/** Core memories by importance, then recency; superseded ones are not "top". */
export function topCore(
  statements: StatementCache,
  namespace: string,
  limit: number,
  aliveAt: string,
): MemoryEntry[] {
  const where = filterSql({ namespace, categories: ["core"], aliveAt });
  const rows = statements
    .get(
      `SELECT ${entryColumns(false)} FROM memories m WHERE 1 = 1${where.sql}
       ORDER BY coalesce(m.importance, 0) DESC, m.updated_at DESC, m.rid DESC LIMIT ?`,
    )
    .all(...where.params, limit) as MemoryRow[];
  return rows.map((row) => rowToEntry(row));
}
