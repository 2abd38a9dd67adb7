// Reading what a damaged table still holds, row by row: the row ids come from every place that
// names them (a scan of the table, each full index on it, and the ids in between), and each row is
// then read on its own, so a damaged page costs the rows on it and no others. Ids an index or a
// scan named but whose row could not be read are reported as lost.
import type { Database } from "better-sqlite3";

export interface ReadableRows {
  rows: Array<Record<string, unknown>>;
  /** Row ids known to exist (named by a scan or an index) whose row could not be read. */
  lost: number[];
  /** Whether some part of the table or its indexes could not be read. */
  damaged: boolean;
}

/** Ids in between the known ones are tried too, up to this many beyond the known count. */
const MAX_PROBES = 1_000_000;

/**
 * Every readable row of `table` (a rowid table), each with its rowid as `__rowid`. `rowid` is the
 * column aliasing the rowid (`rid` for memories) or "rowid".
 */
export function readableRows(db: Database, table: string, rowid: string): ReadableRows {
  const known = new Set<number>();
  let damaged = false;
  const collect = (sql: string): boolean => {
    try {
      for (const id of db.prepare(sql).pluck().iterate()) known.add(Number(id));
      return true;
    } catch {
      damaged = true;
      return false;
    }
  };
  // A whole scan of the table is the truth: an index naming more is a damaged index.
  const scanned = collect(`SELECT ${rowid} FROM ${table} NOT INDEXED`);
  for (const index of fullIndexes(db, table)) collect(`SELECT ${rowid} FROM ${table} INDEXED BY "${index}"`);
  let highest = 0;
  for (const id of known) if (id > highest) highest = id;
  const candidates = new Set(known);
  if (damaged && highest <= known.size + MAX_PROBES) for (let id = 1; id <= highest; id++) candidates.add(id);

  const read = db.prepare(`SELECT ${rowid} AS __rowid, * FROM ${table} WHERE ${rowid} = ?`);
  const rows: Array<Record<string, unknown>> = [];
  const lost: number[] = [];
  for (const id of [...candidates].sort((a, b) => a - b)) {
    try {
      const row = read.get(id) as Record<string, unknown> | undefined;
      if (row !== undefined) rows.push(row);
      else if (known.has(id) && !scanned) lost.push(id); // named by an index, gone from the table
    } catch {
      damaged = true;
      if (known.has(id)) lost.push(id);
    }
  }
  return { rows, lost, damaged };
}

/** The table's indexes that hold every row (partial ones do not). */
function fullIndexes(db: Database, table: string): string[] {
  try {
    const list = db.prepare(`PRAGMA index_list("${table}")`).all() as Array<{
      name: string;
      partial: number;
    }>;
    return list.filter((index) => index.partial === 0).map((index) => index.name);
  } catch {
    return [];
  }
}

/** Every row of `table` a plain scan reads before it meets damage (for tables that are caches). */
export function scannableRows(db: Database, table: string): Array<Record<string, unknown>> {
  const rows: Array<Record<string, unknown>> = [];
  try {
    for (const row of db.prepare(`SELECT * FROM ${table}`).iterate())
      rows.push(row as Record<string, unknown>);
  } catch {
    // what was read before the damage is kept
  }
  return rows;
}
