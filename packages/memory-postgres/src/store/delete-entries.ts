import type { Queryable } from "../db/pool.js";
import type { SqlNames } from "../db/sql-names.js";

/** (namespace, key) pairs, already validated. */
export type EntryRefPair = readonly [namespace: string, key: string];

/** Deletes the listed entries in one statement; returns how many existed. */
export async function deleteRefs(
  db: Queryable,
  names: SqlNames,
  pairs: readonly EntryRefPair[],
): Promise<number> {
  if (pairs.length === 0) return 0;
  const result = await db.query(
    `DELETE FROM ${names.memories} m USING unnest($1::text[], $2::text[]) AS r(namespace, key)
     WHERE m.namespace = r.namespace AND m.key = r.key`,
    [pairs.map((p) => p[0]), pairs.map((p) => p[1])],
  );
  return result.rowCount ?? 0;
}

export async function deleteNamespace(db: Queryable, names: SqlNames, namespace: string): Promise<number> {
  const result = await db.query(`DELETE FROM ${names.memories} WHERE namespace = $1`, [namespace]);
  return result.rowCount ?? 0;
}

export async function deleteSession(db: Queryable, names: SqlNames, sessionId: string): Promise<number> {
  const result = await db.query(`DELETE FROM ${names.memories} WHERE session_id = $1`, [sessionId]);
  return result.rowCount ?? 0;
}
