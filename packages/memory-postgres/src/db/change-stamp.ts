import type { Queryable } from "./pool.js";
import type { SqlNames } from "./sql-names.js";

/**
 * A counter that moves after every committed write, by any server sharing the database: a cached
 * recall is served only while the counter still reads what it read before that recall was
 * computed. A sequence, because nextval neither blocks concurrent writers nor rolls back.
 *
 * Bumped after the commit, never inside the transaction: a reader that computed its result before
 * the commit then always sees a newer value than the one it stored with that result.
 */
export async function bumpChanges(db: Queryable, names: SqlNames): Promise<void> {
  await db.query(`SELECT nextval('${names.changes}')`);
}

export async function readChanges(db: Queryable, names: SqlNames): Promise<string> {
  const { rows } = await db.query<{ stamp: string }>(
    `SELECT last_value::text || ':' || is_called::text AS stamp FROM ${names.changes}`,
  );
  return rows[0]?.stamp ?? "";
}
