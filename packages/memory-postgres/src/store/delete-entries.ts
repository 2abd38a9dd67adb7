import type { EntryRefPair } from "@claw/memory-api";
import type { Queryable } from "../db/pool.js";
import type { SqlNames } from "../db/sql-names.js";
import { refreshTurnContexts } from "./session-context.js";

/**
 * Deletes the listed entries in one statement; returns how many existed. The session turns that
 * followed a deleted one are indexed again, so no deleted text stays findable through their context.
 */
export async function deleteRefs(
  db: Queryable,
  names: SqlNames,
  pairs: readonly EntryRefPair[],
  textSearchConfig: string,
): Promise<number> {
  if (pairs.length === 0) return 0;
  const result = await db.query<{
    namespace: string;
    session_id: string | null;
    created_at: string;
    rid: number;
  }>(
    `DELETE FROM ${names.memories} m USING unnest($1::text[], $2::text[]) AS r(namespace, key)
     WHERE m.namespace = r.namespace AND m.key = r.key
     RETURNING m.namespace, m.session_id, m.created_at, m.rid`,
    [pairs.map((p) => p[0]), pairs.map((p) => p[1])],
  );
  const turns = result.rows.flatMap((r) =>
    r.session_id === null
      ? []
      : [{ namespace: r.namespace, sessionId: r.session_id, createdAt: r.created_at, rid: r.rid }],
  );
  await refreshTurnContexts(db, names, textSearchConfig, turns, false);
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
