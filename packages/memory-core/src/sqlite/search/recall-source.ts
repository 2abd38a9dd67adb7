import type { EntryFilter, MemoryEntry, RecallRequest } from "@claw/memory-api";
import type { EmbeddingWorker } from "../../embedding/embedding-worker.js";
import type { RecallEngineSettings, RecalledRow, RecallSource } from "../../recall/recall-engine.js";
import { entryColumns, type MemoryRow, RANK_COLUMNS, type RankRow, rowToEntry } from "../reads/entry-row.js";
import { filterSql } from "../reads/filter-sql.js";
import type { RowCache } from "../reads/row-cache.js";
import type { StatementCache } from "../schema/statement-cache.js";
import type { VectorIndex } from "../vectors/vector-index.js";
import { keywordSearch, likeSearch } from "./keyword-search.js";
import { withSessionNeighbours } from "./session-neighbour-rows.js";

export interface RecallSettings extends RecallEngineSettings {
  sessionContextWeight: number;
  /** See keywordRankBudget in the config schema; 0 ranks every match. */
  keywordRankBudget: number;
}

export interface RecallDeps {
  statements: StatementCache;
  /** The rows recall reads by rowid (candidates, the entries returned). */
  rows: RowCache;
  vectors: VectorIndex;
  worker: EmbeddingWorker | null;
  settings: RecallSettings;
}

/**
 * The searches of one recall over this SQLite store's FTS5 index and vector index (the recall
 * engine runs them). The stages read only the columns ranking needs; recalledEntries then reads
 * the entries returned in full.
 */
export function sqliteRecallSource(deps: RecallDeps, request: RecallRequest): RecallSource<RankRow> {
  const { statements, worker } = deps;
  const { filter } = request;
  return {
    mostRecent: (limit) => mostRecent(statements, filter, limit),
    keyword: (query, depth) =>
      withSessionNeighbours(
        statements,
        keywordSearch(statements, query, filter, depth, deps.settings.keywordRankBudget, deps.rows),
        filter,
        deps.settings.sessionContextWeight,
      ),
    embedQuery: worker === null ? null : (query, signal) => worker.embedQuery(query, signal),
    vector: (queryVector, depth) => deps.vectors.search(queryVector, depth, filter),
    rows: (rids) => stored(deps.rows.rows(rids)),
    like: (query, limit) => likeSearch(statements, query, filter, limit),
  };
}

/** The recalled rows as full entries with their scores, in the same order. */
export function recalledEntries(
  deps: Pick<RecallDeps, "statements" | "rows">,
  recalled: readonly RecalledRow<RankRow>[],
  withEmbeddings: boolean,
): MemoryEntry[] {
  const rids = recalled.map((r) => r.row.rid);
  const rows = withEmbeddings ? rowsWithVectors(deps.statements, rids) : deps.rows.rows(rids);
  return recalled.flatMap((r, i) => {
    const row = rows[i];
    return row === undefined ? [] : [rowToEntry(row, r.score)];
  });
}

/** The rows of `rids` with their vectors, in their order (undefined: not stored). */
function rowsWithVectors(statements: StatementCache, rids: readonly number[]): Array<MemoryRow | undefined> {
  const byRid = new Map<number, MemoryRow>();
  // Chunked to stay under SQLite's bound-parameter limit.
  for (let i = 0; i < rids.length; i += 500) {
    const chunk = rids.slice(i, i + 500);
    const rows = statements
      .get(`SELECT ${entryColumns(true)} FROM memories m WHERE m.rid IN (${chunk.map(() => "?").join(",")})`)
      .all(...chunk) as MemoryRow[];
    for (const row of rows) byRid.set(row.rid, row);
  }
  return rids.map((rid) => byRid.get(rid));
}

function stored<R>(rows: Array<R | undefined>): R[] {
  return rows.filter((row): row is R => row !== undefined);
}

function mostRecent(statements: StatementCache, filter: EntryFilter, limit: number): RankRow[] {
  const where = filterSql(filter);
  return statements
    .get(
      `SELECT ${RANK_COLUMNS} FROM memories m WHERE 1 = 1${where.sql}
       ORDER BY m.updated_at DESC, m.rid DESC LIMIT ?`,
    )
    .all(...where.params, limit) as RankRow[];
}
