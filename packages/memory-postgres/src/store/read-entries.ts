import type { MemoryCategory, MemoryEntry } from "@claw/memory-api";
import type { Queryable } from "../db/pool.js";
import type { SqlNames } from "../db/sql-names.js";
import { entryColumns, type PgEntryRow, rowToEntry } from "./entry-row.js";
import { type EntryFilter, filterSql, SqlParams } from "./filter-sql.js";

/** Read-only queries over claw_memories: get, list, export, count, top core, most recent. */

export async function getEntry(
  db: Queryable,
  names: SqlNames,
  namespace: string,
  key: string,
  aliveAt: string,
): Promise<MemoryEntry | null> {
  const { rows } = await db.query<PgEntryRow>(
    `SELECT ${entryColumns(false)} FROM ${names.memories} m WHERE m.namespace = $1 AND m.key = $2
       AND (m.expires_at IS NULL OR m.expires_at > $3::timestamptz)`,
    [namespace, key, aliveAt],
  );
  return rows[0] === undefined ? null : rowToEntry(rows[0]);
}

/** Newest first; `limit` rows from `offset`. Superseded entries are included unless the filter says. */
export async function recentRows(
  db: Queryable,
  names: SqlNames,
  filter: EntryFilter,
  limit: number,
  offset: number,
  withEmbedding: boolean,
): Promise<PgEntryRow[]> {
  const params = new SqlParams();
  const where = filterSql(filter, params, true);
  const { rows } = await db.query<PgEntryRow>(
    `SELECT ${entryColumns(withEmbedding)} FROM ${names.memories} m WHERE true${where}
     ORDER BY m.updated_at DESC, m.rid DESC LIMIT ${params.add(limit)} OFFSET ${params.add(offset)}`,
    params.values,
  );
  return rows;
}

export async function listEntries(
  db: Queryable,
  names: SqlNames,
  filter: EntryFilter,
  limit: number,
  offset: number,
): Promise<MemoryEntry[]> {
  const rows = await recentRows(db, names, { ...filter, includeSuperseded: true }, limit, offset, false);
  return rows.map((row) => rowToEntry(row));
}

export async function exportEntries(
  db: Queryable,
  names: SqlNames,
  filter: EntryFilter,
  includeEmbeddings: boolean,
): Promise<MemoryEntry[]> {
  const params = new SqlParams();
  const where = filterSql({ ...filter, includeSuperseded: true }, params, true);
  const { rows } = await db.query<PgEntryRow>(
    `SELECT ${entryColumns(includeEmbeddings)} FROM ${names.memories} m WHERE true${where}
     ORDER BY m.namespace, m.created_at, m.rid`,
    params.values,
  );
  return rows.map((row) => rowToEntry(row));
}

/** Export's rows after `afterRid`, in rid order (the order they were first stored), at most `limit`. */
export async function exportPage(
  db: Queryable,
  names: SqlNames,
  filter: EntryFilter,
  includeEmbeddings: boolean,
  afterRid: number,
  limit: number,
): Promise<PgEntryRow[]> {
  const params = new SqlParams();
  const after = params.add(afterRid);
  const where = filterSql({ ...filter, includeSuperseded: true }, params, true);
  const { rows } = await db.query<PgEntryRow>(
    `SELECT ${entryColumns(includeEmbeddings)} FROM ${names.memories} m WHERE m.rid > ${after}${where}
     ORDER BY m.rid LIMIT ${params.add(limit)}`,
    params.values,
  );
  return rows;
}

export async function countEntries(
  db: Queryable,
  names: SqlNames,
  namespace: string | undefined,
  category: MemoryCategory | undefined,
  aliveAt: string,
): Promise<number> {
  const params = new SqlParams();
  const where = filterSql(
    {
      namespace,
      categories: category === undefined ? undefined : [category],
      includeSuperseded: true,
      aliveAt,
    },
    params,
  );
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*) AS n FROM ${names.memories} m WHERE true${where}`,
    params.values,
  );
  return rows[0]?.n ?? 0;
}

/** Core memories by importance, then recency; superseded ones are not "top". */
export async function topCore(
  db: Queryable,
  names: SqlNames,
  namespace: string,
  limit: number,
  aliveAt: string,
): Promise<MemoryEntry[]> {
  const params = new SqlParams();
  const where = filterSql({ namespace, categories: ["core"], aliveAt }, params);
  const { rows } = await db.query<PgEntryRow>(
    `SELECT ${entryColumns(false)} FROM ${names.memories} m WHERE true${where}
     ORDER BY coalesce(m.importance, 0) DESC, m.updated_at DESC, m.rid DESC LIMIT ${params.add(limit)}`,
    params.values,
  );
  return rows.map((row) => rowToEntry(row));
}

/** Rows by rid (any order). */
export async function rowsByRid(
  db: Queryable,
  names: SqlNames,
  rids: readonly number[],
  withEmbedding: boolean,
): Promise<PgEntryRow[]> {
  const { rows } = await db.query<PgEntryRow>(
    `SELECT ${entryColumns(withEmbedding)} FROM ${names.memories} m WHERE m.rid = ANY($1::bigint[])`,
    [rids],
  );
  return rows;
}
