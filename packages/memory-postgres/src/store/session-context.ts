// A session turn's tsvector holds the turn before it (fts-vector.ts, weight D), as in core's SQLite
// store. These keep it right after writes and deletes: the written turns and the turns after them
// are indexed again with what now precedes them.
import type { Queryable } from "../db/pool.js";
import type { SqlNames } from "../db/sql-names.js";
import { type FtsSource, writeFtsVectors } from "./fts-vector.js";

/** Where a turn sits (or sat) in its session: sessions are ordered by created_at, then rid. */
export interface TurnPosition {
  namespace: string;
  sessionId: string;
  createdAt: string | Date;
  rid: number;
}

/**
 * Re-indexes the turns at `turns` (when `self`) and the turn after each, each with its context.
 * Two statements: one finds the rows and the text before each, one writes their tsvectors.
 */
export async function refreshTurnContexts(
  db: Queryable,
  names: SqlNames,
  textSearchConfig: string,
  turns: readonly TurnPosition[],
  self: boolean,
): Promise<void> {
  if (turns.length === 0) return;
  const m = names.memories;
  const { rows } = await db.query<FtsSource>(
    `WITH t AS (
       SELECT * FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::bigint[])
         AS t(namespace, session_id, created_at, rid)
     ), target AS (
       SELECT t.rid FROM t WHERE $5::boolean
       UNION
       SELECT (SELECT n.rid FROM ${m} n
               WHERE n.namespace = t.namespace AND n.session_id = t.session_id
                 AND (n.created_at, n.rid) > (t.created_at, t.rid)
               ORDER BY n.created_at, n.rid LIMIT 1)
       FROM t
     )
     SELECT r.rid, r.key, r.content, r.created_at, r.context,
       (SELECT p.content FROM ${m} p
        WHERE p.namespace = r.namespace AND p.session_id = r.session_id
          AND (p.created_at, p.rid) < (r.created_at, r.rid)
        ORDER BY p.created_at DESC, p.rid DESC LIMIT 1) AS previous
     FROM ${m} r JOIN target ON r.rid = target.rid
     WHERE r.session_id IS NOT NULL`,
    [
      turns.map((t) => t.namespace),
      turns.map((t) => t.sessionId),
      turns.map((t) => t.createdAt),
      turns.map((t) => t.rid),
      self,
    ],
  );
  await writeFtsVectors(db, names, textSearchConfig, rows);
}
