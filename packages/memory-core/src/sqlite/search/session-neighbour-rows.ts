import { lendToNeighbours } from "../../recall/session-neighbours.js";
import { RANK_COLUMNS, type RankRow } from "../reads/entry-row.js";
import { type EntryFilter, filterSql } from "../reads/filter-sql.js";
import type { StatementCache } from "../schema/statement-cache.js";
import type { KeywordHit } from "./keyword-search.js";

/**
 * Keyword hits plus the entries written just before and after each hit in its session (see
 * lendToNeighbours). Entries outside sessions are untouched; neighbours must pass the same filter
 * as the hits.
 */
export function withSessionNeighbours(
  statements: StatementCache,
  hits: readonly KeywordHit[],
  filter: EntryFilter,
  weight: number,
): KeywordHit[] {
  if (weight <= 0 || hits.length === 0) return [...hits];
  const where = filterSql({ ...filter, namespace: undefined, sessionId: undefined });
  const columns = RANK_COLUMNS;
  const before = statements.get(
    `SELECT ${columns} FROM memories m WHERE m.namespace = ? AND m.session_id = ?
     AND (m.created_at < ? OR (m.created_at = ? AND m.rid < ?))${where.sql}
     ORDER BY m.created_at DESC, m.rid DESC LIMIT 1`,
  );
  const after = statements.get(
    `SELECT ${columns} FROM memories m WHERE m.namespace = ? AND m.session_id = ?
     AND (m.created_at > ? OR (m.created_at = ? AND m.rid > ?))${where.sql}
     ORDER BY m.created_at ASC, m.rid ASC LIMIT 1`,
  );
  return lendToNeighbours(
    hits,
    ({ row }) => {
      if (row.session_id === null) return {};
      const args = [row.namespace, row.session_id, row.created_at, row.created_at, row.rid, ...where.params];
      return {
        before: before.get(...args) as RankRow | undefined,
        after: after.get(...args) as RankRow | undefined,
      };
    },
    weight,
  );
}
