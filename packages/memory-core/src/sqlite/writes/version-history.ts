// The history of entries on SQLite (schema 7): the live state stays in `memories` with its version
// number, change and actor; every earlier state, and a tombstone per deletion, is a row of
// `memory_versions`. Every function here runs inside the caller's write transaction.
import type { HistoryRetention, MemoryVersion, RemovalNote } from "@claw/memory-api";
import { type VersionRow, versionOf } from "../reads/version-row.js";
import type { StatementCache } from "../schema/statement-cache.js";

/** The columns of a version, as `memories AS m` holds them (the live state). */
const LIVE_STATE = `m.namespace, m.key, m.id, m.content, m.category, m.session_id, m.importance,
  m.superseded_by, m.metadata, m.expires_at, m.context, m.source_path, m.source_start, m.source_end`;
const STATE_COLUMNS = `namespace, key, id, content, category, session_id, importance, superseded_by,
  metadata, expires_at, context, source_path, source_start, source_end`;

/** Keeps the live state of the rows matching `where` (on `memories AS m`) as their current version. */
export function archiveLiveWhere(statements: StatementCache, where: string, params: unknown[]): void {
  statements
    .get(
      `INSERT INTO memory_versions (${STATE_COLUMNS}, version, action, actor, at, deleted)
       SELECT ${LIVE_STATE}, m.version, coalesce(m.change_action, 'create'),
         coalesce(m.change_actor, 'unknown'), m.updated_at, 0
       FROM memories AS m WHERE ${where}`,
    )
    .run(...params);
}

/**
 * Records the deletion of the rows matching `where`: their live state as its version, then a
 * tombstone holding the same state as the next version; or, for a note that erases the history,
 * deletes every version they have.
 */
export function recordDeletionWhere(
  statements: StatementCache,
  where: string,
  params: unknown[],
  note: RemovalNote,
): void {
  if (note.eraseHistory) {
    statements
      .get(
        `DELETE FROM memory_versions WHERE (namespace, key) IN
           (SELECT m.namespace, m.key FROM memories AS m WHERE ${where})`,
      )
      .run(...params);
    return;
  }
  archiveLiveWhere(statements, where, params);
  statements
    .get(
      `INSERT INTO memory_versions (${STATE_COLUMNS}, version, action, actor, at, deleted)
       SELECT ${LIVE_STATE}, m.version + 1, ?, ?, ?, 1
       FROM memories AS m WHERE ${where}`,
    )
    .run(note.action, note.actor, note.at, ...params);
}

/** Forgets every version of a namespace (purgeNamespace). */
export function purgeNamespaceHistory(statements: StatementCache, namespace: string): void {
  statements.get("DELETE FROM memory_versions WHERE namespace = ?").run(namespace);
}

/** Forgets the versions of a session's entries and every version written in it (purgeSession). */
export function purgeSessionHistory(statements: StatementCache, sessionId: string): void {
  statements
    .get(
      `DELETE FROM memory_versions WHERE session_id = ?
         OR (namespace, key) IN (SELECT namespace, key FROM memories WHERE session_id = ?)`,
    )
    .run(sessionId, sessionId);
}

/** The entry's versions, newest first (at most `limit`; 0 = all): the live row, then the kept ones. */
export function readHistory(
  statements: StatementCache,
  namespace: string,
  key: string,
  limit: number,
): MemoryVersion[] {
  const rows = statements
    .get(
      `SELECT * FROM (
         SELECT ${LIVE_STATE}, m.version, coalesce(m.change_action, 'create') AS action,
           coalesce(m.change_actor, 'unknown') AS actor, m.updated_at AS at, 0 AS deleted, 1 AS current
         FROM memories AS m WHERE m.namespace = ? AND m.key = ?
         UNION ALL
         SELECT ${STATE_COLUMNS}, version, action, actor, at, deleted, 0 AS current
         FROM memory_versions WHERE namespace = ? AND key = ?
       ) ORDER BY version DESC, current DESC LIMIT ?`,
    )
    .all(namespace, key, namespace, key, limit > 0 ? limit : -1) as VersionRow[];
  // A live version is never also kept; should one be (a store from before this schema), the live one wins.
  const seen = new Set<number>();
  return rows.filter((r) => !seen.has(r.version) && seen.add(r.version)).map(versionOf);
}

/**
 * Drops kept versions past the retention: beyond the newest `maxVersions` of each entry (its live
 * state counting as one), or older than `maxDays`. Returns how many went.
 */
export function pruneVersions(statements: StatementCache, retention: HistoryRetention, now: string): number {
  let dropped = 0;
  if (retention.maxDays > 0) {
    const oldest = new Date(Date.parse(now) - retention.maxDays * 86_400_000).toISOString();
    dropped += statements.get("DELETE FROM memory_versions WHERE at < ?").run(oldest).changes;
  }
  if (retention.maxVersions > 0) {
    dropped += statements
      .get(
        `DELETE FROM memory_versions AS v WHERE v.version <= (
           SELECT max(top) - ? FROM (
             SELECT max(w.version) AS top FROM memory_versions AS w
               WHERE w.namespace = v.namespace AND w.key = v.key
             UNION ALL
             SELECT m.version FROM memories AS m WHERE m.namespace = v.namespace AND m.key = v.key))`,
      )
      .run(retention.maxVersions).changes;
  }
  return dropped;
}
