import { type EntryFilter, filterSql } from "./entry-filter.js";
import { entryColumns, type MemoryRow } from "./entry-row.js";
import type { KeywordHit } from "./keyword-search.js";
import type { StatementCache } from "./statement-cache.js";

/**
 * Conversation turns lean on each other: an answer ("For walking or running?") often shares no
 * word with the question that its neighbour matches. Each keyword hit that belongs to a session
 * lends `weight × its score` to the entries written just before and after it in that session, as
 * if the neighbour's words were indexed with it at a lower weight. Entries outside sessions are
 * untouched; neighbours must pass the same filter as the hits.
 */
export function withSessionNeighbours(
  statements: StatementCache,
  hits: readonly KeywordHit[],
  filter: EntryFilter,
  weight: number,
  withEmbedding: boolean,
): KeywordHit[] {
  if (weight <= 0 || hits.length === 0) return [...hits];
  const scored = new Map(hits.map((h) => [h.row.rid, { row: h.row, score: h.score }]));
  const where = filterSql({ ...filter, namespace: undefined, sessionId: undefined });
  const columns = entryColumns(withEmbedding);
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
  for (const hit of hits) {
    const { row } = hit;
    if (row.session_id === null) continue;
    const args = [row.namespace, row.session_id, row.created_at, row.created_at, row.rid, ...where.params];
    for (const neighbour of [before.get(...args), after.get(...args)] as Array<MemoryRow | undefined>) {
      if (neighbour === undefined) continue;
      const known = scored.get(neighbour.rid);
      if (known === undefined) scored.set(neighbour.rid, { row: neighbour, score: weight * hit.score });
      else known.score += weight * hit.score;
    }
  }
  return [...scored.values()].sort((a, b) => b.score - a.score || a.row.rid - b.row.rid);
}
