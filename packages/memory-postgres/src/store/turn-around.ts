// A single session turn is written in 2 statements, without BEGIN and COMMIT: this read, then the
// upsert, which indexes the turn with the turn before it and re-indexes the turn after it
// (write-entries.ts) in the same statement, so the three land together or not at all.
import type { EntryWrite } from "@claw/memory-core";
import type { Queryable } from "../db/pool.js";
import type { SqlNames } from "../db/sql-names.js";
import type { FtsSource } from "./fts-vector.js";

/** What the upsert of one session turn needs to know of its session, read just before it. */
export interface TurnAround {
  /** The turn's created_at as it will be stored: an overwrite keeps the one it had. */
  at: string | Date;
  /** The content of the turn before it, if any. */
  previous: string | null;
  /** The turn after it, to index again with this turn's content as the turn before. */
  successor: Omit<FtsSource, "previous"> | null;
}

/** Sorts after every rid: a new row's rid comes from the sequence, above every row read. */
const LAST_RID = "9223372036854775807";

/**
 * The turn before and after where `write` (a session turn) will sit, in one statement; null when
 * it overwrites a session turn that moves (another session, or another time), whose old place
 * needs its own refresh: the caller writes it in a transaction as several writes are.
 */
export async function readTurnAround(
  db: Queryable,
  names: SqlNames,
  write: EntryWrite,
): Promise<TurnAround | null> {
  const m = names.memories;
  const { rows } = await db.query<{
    old_session_id: string | null;
    old_created_at: string | null;
    at: string;
    previous: string | null;
    rid: number | null;
    key: string | null;
    content: string | null;
    created_at: string | null;
    context: string | null;
  }>(
    `WITH old AS (
       SELECT o.rid, o.session_id, o.created_at FROM ${m} o WHERE o.namespace = $1 AND o.key = $2
     ), pos AS (
       SELECT CASE WHEN $5::boolean AND old.rid IS NOT NULL THEN old.created_at ELSE $4::timestamptz END AS at,
         coalesce(old.rid, ${LAST_RID}) AS rid
       FROM (SELECT 1) one LEFT JOIN old ON true
     )
     SELECT old.session_id AS old_session_id, old.created_at AS old_created_at, pos.at,
       (SELECT p.content FROM ${m} p
        WHERE p.namespace = $1 AND p.session_id = $3 AND p.key <> $2
          AND (p.created_at, p.rid) < (pos.at, pos.rid)
        ORDER BY p.created_at DESC, p.rid DESC LIMIT 1) AS previous,
       n.rid, n.key, n.content, n.created_at, n.context
     FROM pos LEFT JOIN old ON true
     LEFT JOIN LATERAL (
       SELECT n.rid, n.key, n.content, n.created_at, n.context FROM ${m} n
       WHERE n.namespace = $1 AND n.session_id = $3 AND n.key <> $2
         AND (n.created_at, n.rid) > (pos.at, pos.rid)
       ORDER BY n.created_at, n.rid LIMIT 1
     ) n ON true`,
    [write.namespace, write.key, write.sessionId, write.createdAt, write.keepCreatedAt === true],
  );
  const row = rows[0];
  if (row === undefined) return null;
  const moved =
    row.old_session_id !== null &&
    (row.old_session_id !== write.sessionId || !sameInstant(row.old_created_at, row.at));
  if (moved) return null;
  const successor =
    row.rid === null || row.key === null || row.content === null || row.created_at === null
      ? null
      : {
          rid: row.rid,
          key: row.key,
          content: row.content,
          created_at: row.created_at,
          context: row.context,
        };
  return { at: row.at, previous: row.previous, successor };
}

function sameInstant(a: string | Date | null, b: string | Date): boolean {
  return a !== null && new Date(a).getTime() === new Date(b).getTime();
}
