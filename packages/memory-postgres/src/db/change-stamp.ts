import type { Queryable } from "./pool.js";
import type { SqlNames } from "./sql-names.js";

/**
 * The change stamp: a value that moves with every committed write, by any server sharing the
 * database. A cached recall is served only while the stamp still reads what it read before that
 * recall was computed.
 *
 * It is the sum of a table of counters, one row per server process (backend) that ever wrote,
 * each write adding 1 to its own process's row in the same transaction (or the same statement)
 * as the write itself. Being transactional, the sum moves exactly when the write becomes visible:
 * a reader that read the stamp before the commit cached its result under the old sum and misses
 * afterwards; a reader that read it after sees the write. Two transactions never run on one
 * backend at once, so writers never wait on each other's counter row (no lock, no deadlock);
 * rolled-back writes add nothing. A store is then a single statement: its upsert and this bump.
 *
 * The rows of backends that have gone are folded into row 0 when there are more than
 * COMPACT_ABOVE rows (the sum is unchanged by it), so the table stays small however often
 * connections are replaced.
 *
 * Until schema version 7 the stamp was a sequence bumped after each commit; a server of that
 * release still running beside this one bumps it, so the stamp reads it too.
 */
const COMPACT_ABOVE = 64;

/** An INSERT that adds 1 to this backend's counter: a statement, or a data-modifying CTE. */
export function bumpChangesSql(names: SqlNames): string {
  return `INSERT INTO ${names.changeCounts} AS c (backend, n) VALUES (pg_backend_pid(), 1)
    ON CONFLICT (backend) DO UPDATE SET n = c.n + 1`;
}

/** Adds 1 to this backend's counter (inside a write's transaction, or after its commit). */
export async function bumpChanges(db: Queryable, names: SqlNames): Promise<void> {
  await db.query(bumpChangesSql(names));
}

export async function readChanges(db: Queryable, names: SqlNames): Promise<string> {
  const { rows } = await db.query<{ stamp: string; rows: number }>(
    `SELECT s.last_value::text || ':' || s.is_called::text || ':' || coalesce(c.total, 0)::text AS stamp,
       c.rows::int AS rows
     FROM ${names.changes} s,
       (SELECT sum(n) AS total, count(*) AS rows FROM ${names.changeCounts}) c`,
  );
  const row = rows[0];
  if (row === undefined) return "";
  if (row.rows > COMPACT_ABOVE) await compactChanges(db, names);
  return row.stamp;
}

/**
 * Folds the counters of backends no longer running into row 0, in one statement: the sum does
 * not move. A backend that started since is left alone; a counter being bumped right now is
 * waited for (its row is locked), then folded with its new value.
 */
export async function compactChanges(db: Queryable, names: SqlNames): Promise<void> {
  await db.query(
    `WITH gone AS (
       DELETE FROM ${names.changeCounts} c
       WHERE c.backend <> 0 AND NOT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.pid = c.backend)
       RETURNING c.n
     )
     INSERT INTO ${names.changeCounts} AS c (backend, n) SELECT 0, sum(gone.n) FROM gone
       HAVING count(*) > 0
     ON CONFLICT (backend) DO UPDATE SET n = c.n + EXCLUDED.n`,
  );
}
