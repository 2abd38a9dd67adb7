// The context column of a conversation turn holds the turn before it in its session
// (text/entry-context.ts). These keep it right when turns are written, changed or deleted.
import { entryContext } from "../../text/entry-context.js";
import type { StatementCache } from "../schema/statement-cache.js";
import { reindexFullText } from "../search/fts-index.js";

/** Where a turn sits in its session: sessions are ordered by created_at, then rid. */
export interface TurnPosition {
  namespace: string;
  sessionId: string;
  createdAt: string;
  rid: number;
}

/** The indexed text of the turn before `turn` in its session, or null when it is the first. */
export function previousTurnText(statements: StatementCache, turn: TurnPosition): string | null {
  const row = statements
    .get(
      `SELECT coalesce(fts_text, content) FROM memories
       WHERE namespace = ? AND session_id = ? AND (created_at, rid) < (?, ?)
       ORDER BY created_at DESC, rid DESC LIMIT 1`,
    )
    .pluck()
    .get(turn.namespace, turn.sessionId, turn.createdAt, turn.rid) as string | undefined;
  return row ?? null;
}

/**
 * The context an entry is indexed with: its date, its own `extra` context (MemoryEntry.context)
 * and, in a session, the previous turn.
 */
export function contextOf(
  statements: StatementCache,
  entry: {
    namespace: string;
    sessionId: string | null;
    createdAt: string;
    rid: number;
    extra: string | null;
  },
): string {
  const previous =
    entry.sessionId === null ? null : previousTurnText(statements, { ...entry, sessionId: entry.sessionId });
  return entryContext(entry.createdAt, previous, entry.extra);
}

/**
 * Re-indexes the turn after `turn` (which was just written, changed or deleted) so that its
 * context holds what now precedes it. A turn appended at the end of its session, the common case,
 * costs one index lookup that finds nothing.
 */
export function refreshNextTurn(statements: StatementCache, turn: TurnPosition): void {
  const next = statements
    .get(
      `SELECT rid, key, coalesce(fts_text, content) AS body, created_at, context FROM memories
       WHERE namespace = ? AND session_id = ? AND (created_at, rid) > (?, ?)
       ORDER BY created_at, rid LIMIT 1`,
    )
    .get(turn.namespace, turn.sessionId, turn.createdAt, turn.rid) as
    | { rid: number; key: string; body: string; created_at: string; context: string | null }
    | undefined;
  if (next === undefined) return;
  const context = contextOf(statements, {
    namespace: turn.namespace,
    sessionId: turn.sessionId,
    createdAt: next.created_at,
    rid: next.rid,
    extra: next.context,
  });
  reindexFullText(statements, next.rid, next.key, next.body, context);
}

/** The session turns among the entries matching `where` (on `memories m`), before a delete. */
export function turnsWhere(statements: StatementCache, where: string, params: unknown[]): TurnPosition[] {
  return (
    statements
      .get(
        `SELECT m.namespace, m.session_id, m.created_at, m.rid FROM memories m
         WHERE (${where}) AND m.session_id IS NOT NULL`,
      )
      .raw()
      .all(...params) as [string, string, string, number][]
  ).map(([namespace, sessionId, createdAt, rid]) => ({ namespace, sessionId, createdAt, rid }));
}
