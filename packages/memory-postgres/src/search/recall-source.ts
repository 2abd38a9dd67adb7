import type { EmbeddingWorker, RecallSource } from "@claw/memory-core";
import type { Queryable } from "../db/pool.js";
import type { SqlNames } from "../db/sql-names.js";
import type { VectorSearch } from "../embedding/vector-index.js";
import type { PgEntryRow } from "../store/entry-row.js";
import type { EntryFilter } from "../store/filter-sql.js";
import { recentRows, rowsByRid } from "../store/read-entries.js";
import { type KeywordContext, keywordSearch, likeSearch, withSessionNeighbours } from "./keyword-search.js";
import type { TermPlanner } from "./term-stats.js";
import { searchVectors } from "./vector-search.js";

export interface RecallSourceContext {
  db: Queryable;
  names: SqlNames;
  textSearchConfig: string;
  vectors: VectorSearch | null;
  worker: EmbeddingWorker | null;
  sessionContextWeight: number;
  terms: TermPlanner;
  /** The pool holds more than one connection: a hybrid recall's two searches run side by side. */
  concurrent: boolean;
}

/** The searches core's recall pipeline (runRecallEngine) runs, over PostgreSQL, for one recall. */
export function postgresRecallSource(
  ctx: RecallSourceContext,
  filter: EntryFilter,
  withEmbedding: boolean,
): RecallSource<PgEntryRow> {
  const { db, names, worker, vectors } = ctx;
  const keyword: KeywordContext = {
    db,
    names,
    textSearchConfig: ctx.textSearchConfig,
    filter,
    withEmbedding,
    terms: ctx.terms,
  };
  return {
    mostRecent: (limit) => recentRows(db, names, filter, limit, 0, withEmbedding),
    keyword: async (query, depth) =>
      withSessionNeighbours(keyword, await keywordSearch(keyword, query, depth), ctx.sessionContextWeight),
    embedQuery:
      worker === null || vectors === null ? null : (query, signal) => worker.embedQuery(query, signal),
    vector: (queryVector, depth) =>
      vectors === null ? [] : searchVectors(db, names, vectors, queryVector, depth, filter),
    rows: (rids) => rowsByRid(db, names, rids, withEmbedding),
    like: (query, limit) => likeSearch(keyword, query, limit),
    concurrent: ctx.concurrent,
  };
}
