// The history lines of a PostgreSQL backup (backup-ndjson.ts): every version of every key as
// history() lists it — the live row as the current version, then the kept versions and tombstones —
// read in (namespace, key, version) order a page at a time, keyset on that triple (the primary key
// of the versions table, the unique (namespace, key) of the live rows). A live row that has expired
// is not among the backup's entries, so its state is written as a version that is no longer
// current: restored, it can never become current without its entry.
import type { MemoryVersion } from "@claw/memory-api";
import { type VersionRow, versionOf } from "@claw/memory-core";
import type { Queryable } from "../db/pool.js";
import type { SqlNames } from "../db/sql-names.js";
import { VERSION_STATE } from "./version-history.js";

/**
 * The versions one page reads: each table's next `$2` in its own index's order (the live rows' by
 * their unique (namespace, key), one row a key), merged, the live row (rank 0) before a kept one of
 * the same number. Each page reads its rows through the indexes, however large the store.
 */
function pageSql(names: SqlNames, after: boolean): string {
  const live = after
    ? "WHERE (namespace, key) >= ($3::text, $4::text) AND (namespace, key, version) > ($3, $4, $5::int)"
    : "";
  const kept = after ? "WHERE (namespace, key, version) > ($3::text, $4::text, $5::int)" : "";
  return `SELECT * FROM (
      (SELECT ${VERSION_STATE}, version, coalesce(change_action, 'create') AS action,
        coalesce(change_actor, 'unknown') AS actor, updated_at AS at, false AS deleted,
        (expires_at IS NULL OR expires_at > $1::timestamptz) AS current, 0 AS rank
      FROM ${names.memories} ${live} ORDER BY namespace, key LIMIT $2)
      UNION ALL
      (SELECT ${VERSION_STATE}, version, action, actor, at, deleted, false AS current, 1 AS rank
      FROM ${names.versions} ${kept} ORDER BY namespace, key, version LIMIT $2)
    ) v ORDER BY namespace, key, version, rank LIMIT $2`;
}

/** How many history lines the store holds (a kept version that repeats a live one's number is not one). */
export async function countVersions(db: Queryable, names: SqlNames): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT (SELECT count(*) FROM ${names.memories}) + (SELECT count(*) FROM ${names.versions} v
       WHERE NOT EXISTS (SELECT 1 FROM ${names.memories} m
         WHERE m.namespace = v.namespace AND m.key = v.key AND m.version = v.version)) AS n`,
  );
  return rows[0]?.n ?? 0;
}

/**
 * Every version of every key, `pageSize` at a time, oldest first within a key; entries expired at
 * `aliveAt` give versions that are not current. Run it inside the snapshot the entries were read in.
 */
export async function* versionPages(
  db: Queryable,
  names: SqlNames,
  aliveAt: string,
  pageSize: number,
): AsyncGenerator<MemoryVersion[]> {
  let last: MemoryVersion | undefined;
  for (;;) {
    const { rows } = await db.query<VersionRow & { rank: number }>(
      pageSql(names, last !== undefined),
      last === undefined ? [aliveAt, pageSize] : [aliveAt, pageSize, last.namespace, last.key, last.version],
    );
    const page: MemoryVersion[] = [];
    for (const { rank: _, ...row } of rows) {
      const version = versionOf(row);
      // history() shows the live row, not a kept version of the same number (the next page starts
      // after the triple, so a twin is always on the same page as the row it repeats).
      const previous = page.at(-1) ?? last;
      if (
        previous !== undefined &&
        previous.namespace === version.namespace &&
        previous.key === version.key &&
        previous.version === version.version
      )
        continue;
      page.push(version);
    }
    if (page.length > 0) yield page;
    last = page.at(-1) ?? last;
    if (rows.length < pageSize) return;
  }
}
