import type { HistoryRetention, MemoryVersion } from "@claw/memory-api";
import { type VersionRow, versionOf } from "@claw/memory-core";
import type { Queryable } from "../db/pool.js";
import type { SqlNames } from "../db/sql-names.js";

/** The state columns a version keeps, named alike in claw_memories and the versions table. */
export const VERSION_STATE = `namespace, key, id, content, category, session_id, importance, superseded_by,
  metadata, expires_at, context, source_path, source_start, source_end`;

/** The entry's versions, newest first (at most `limit`; 0 = all): the live row, then the kept ones. */
export async function readHistory(
  db: Queryable,
  names: SqlNames,
  namespace: string,
  key: string,
  limit: number,
): Promise<MemoryVersion[]> {
  const { rows } = await db.query<VersionRow>(
    `SELECT * FROM (
       SELECT ${VERSION_STATE}, version, coalesce(change_action, 'create') AS action,
         coalesce(change_actor, 'unknown') AS actor, updated_at AS at, false AS deleted, true AS current
       FROM ${names.memories} WHERE namespace = $1 AND key = $2
       UNION ALL
       SELECT ${VERSION_STATE}, version, action, actor, at, deleted, false AS current
       FROM ${names.versions} WHERE namespace = $1 AND key = $2
     ) v ORDER BY version DESC, current DESC ${limit > 0 ? "LIMIT $3" : ""}`,
    limit > 0 ? [namespace, key, limit] : [namespace, key],
  );
  const seen = new Set<number>();
  return rows.filter((r) => !seen.has(r.version) && seen.add(r.version)).map(versionOf);
}

/**
 * Drops kept versions past the retention: beyond the newest `maxVersions` of each entry (its live
 * state counting as one), or older than `maxDays`. Returns how many went.
 */
export async function pruneVersions(
  db: Queryable,
  names: SqlNames,
  retention: HistoryRetention,
  now: string,
): Promise<number> {
  let dropped = 0;
  if (retention.maxDays > 0) {
    const oldest = new Date(Date.parse(now) - retention.maxDays * 86_400_000).toISOString();
    const result = await db.query(`DELETE FROM ${names.versions} WHERE at < $1::timestamptz`, [oldest]);
    dropped += result.rowCount ?? 0;
  }
  if (retention.maxVersions > 0) {
    const result = await db.query(
      `DELETE FROM ${names.versions} v USING (
         SELECT namespace, key, max(version) AS top FROM (
           SELECT namespace, key, version FROM ${names.versions}
           UNION ALL SELECT namespace, key, version FROM ${names.memories}
         ) a GROUP BY namespace, key
       ) t
       WHERE v.namespace = t.namespace AND v.key = t.key AND v.version <= t.top - $1`,
      [retention.maxVersions],
    );
    dropped += result.rowCount ?? 0;
  }
  return dropped;
}
