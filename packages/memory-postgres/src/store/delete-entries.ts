import type { EntryRefPair, RemovalNote } from "@claw/memory-api";
import type { Queryable } from "../db/pool.js";
import type { SqlNames } from "../db/sql-names.js";
import { refreshTurnContexts } from "./session-context.js";
import { VERSION_STATE } from "./version-history.js";

/**
 * Deletes the rows `where` selects (a condition on `m`, with `params` as $1…) in one statement that
 * also records each deletion: the live state as its version, then a tombstone with `note` as the
 * next one (or, when the note erases the history, deletes every version of them). The session
 * turns that followed a deleted one are indexed again, so no deleted text stays findable through
 * their context. Returns how many rows went.
 */
async function deleteRecorded(
  db: Queryable,
  names: SqlNames,
  using: string,
  where: string,
  params: unknown[],
  note: RemovalNote,
  textSearchConfig: string,
): Promise<number> {
  const n = params.length;
  const history = note.eraseHistory
    ? `erased AS (
         DELETE FROM ${names.versions} v USING gone WHERE v.namespace = gone.namespace AND v.key = gone.key
       )`
    : `kept AS (
       INSERT INTO ${names.versions} (${VERSION_STATE}, version, action, actor, at, deleted)
       SELECT ${VERSION_STATE}, version, coalesce(change_action, 'create'), coalesce(change_actor, 'unknown'),
         updated_at, false FROM gone
     ), tombstones AS (
       INSERT INTO ${names.versions} (${VERSION_STATE}, version, action, actor, at, deleted)
       SELECT ${VERSION_STATE}, version + 1, $${n + 1}, $${n + 2}, $${n + 3}::timestamptz, true FROM gone
     )`;
  const result = await db.query<{
    namespace: string;
    session_id: string | null;
    created_at: string;
    rid: number;
  }>(
    `WITH gone AS (
       DELETE FROM ${names.memories} m ${using} WHERE ${where} RETURNING m.*
     ), ${history}
     SELECT namespace, session_id, created_at, rid FROM gone`,
    note.eraseHistory ? params : [...params, note.action, note.actor, note.at],
  );
  const turns = result.rows.flatMap((r) =>
    r.session_id === null
      ? []
      : [{ namespace: r.namespace, sessionId: r.session_id, createdAt: r.created_at, rid: r.rid }],
  );
  await refreshTurnContexts(db, names, textSearchConfig, turns, false);
  return result.rowCount ?? 0;
}

/** Deletes the listed entries, each leaving a tombstone; returns how many existed. */
export async function deleteRefs(
  db: Queryable,
  names: SqlNames,
  pairs: readonly EntryRefPair[],
  note: RemovalNote,
  textSearchConfig: string,
): Promise<number> {
  if (pairs.length === 0) return 0;
  return deleteRecorded(
    db,
    names,
    "USING unnest($1::text[], $2::text[]) AS r(namespace, key)",
    "m.namespace = r.namespace AND m.key = r.key",
    [pairs.map((p) => p[0]), pairs.map((p) => p[1])],
    note,
    textSearchConfig,
  );
}

/** Deletes the entries whose expiry is at or before `note.at`, each leaving a tombstone. */
export async function deleteExpired(
  db: Queryable,
  names: SqlNames,
  note: RemovalNote,
  textSearchConfig: string,
): Promise<number> {
  return deleteRecorded(
    db,
    names,
    "",
    "m.expires_at IS NOT NULL AND m.expires_at <= $1::timestamptz",
    [note.at],
    note,
    textSearchConfig,
  );
}

/** Deletes a namespace's entries and all of its history, in one statement. */
export async function deleteNamespace(db: Queryable, names: SqlNames, namespace: string): Promise<number> {
  const result = await db.query(
    `WITH history AS (DELETE FROM ${names.versions} WHERE namespace = $1)
     DELETE FROM ${names.memories} WHERE namespace = $1`,
    [namespace],
  );
  return result.rowCount ?? 0;
}

/** Deletes a session's entries, their history and every version written in the session. */
export async function deleteSession(db: Queryable, names: SqlNames, sessionId: string): Promise<number> {
  const result = await db.query(
    `WITH history AS (
       DELETE FROM ${names.versions} v WHERE v.session_id = $1
         OR (v.namespace, v.key) IN (SELECT namespace, key FROM ${names.memories} WHERE session_id = $1)
     )
     DELETE FROM ${names.memories} WHERE session_id = $1`,
    [sessionId],
  );
  return result.rowCount ?? 0;
}
