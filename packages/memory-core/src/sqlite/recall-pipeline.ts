import type { Logger, MemoryEntry, MergeStrategy, SearchMode } from "@claw/memory-api";
import { isMemoryError } from "@claw/memory-api";
import { strengthOf } from "../recall/keyword-score.js";
import { mmrRerank } from "../recall/mmr.js";
import { rrfMerge } from "../recall/rrf-merge.js";
import { weightedMerge } from "../recall/weighted-merge.js";
import { ageInDays, decayFor } from "../text/decay.js";
import { ftsTermsOf } from "../text/fts-query.js";
import { jaccardSimilarity, tokenSet } from "../text/jaccard.js";
import type { EmbeddingPipeline } from "./embedding-pipeline.js";
import { type EntryFilter, filterSql } from "./entry-filter.js";
import { entryColumns, type MemoryRow, rowToEntry } from "./entry-row.js";
import { type KeywordHit, keywordSearch, likeSearch, termCoverage } from "./keyword-search.js";
import { withSessionNeighbours } from "./session-context.js";
import type { StatementCache } from "./statement-cache.js";
import type { VectorIndex } from "./vector-index.js";

export interface RecallSettings {
  mergeStrategy: MergeStrategy;
  ftsEarlyReturnScore: number;
  decayHalfLifeDays: number;
  mmrEnabled: boolean;
  mmrLambda: number;
  sessionContextWeight: number;
}

export interface RecallDeps {
  statements: StatementCache;
  vectors: VectorIndex;
  embeddings: EmbeddingPipeline | null;
  settings: RecallSettings;
  logger: Logger;
  now: () => Date;
  /** Logs a degradation once per reason, not once per query. */
  warnOnce: (reason: string, data?: Record<string, unknown>) => void;
}

export interface RecallRequest {
  query: string;
  limit: number;
  mode: SearchMode;
  filter: EntryFilter;
  minScore?: number;
  withEmbeddings: boolean;
  signal?: AbortSignal;
}

interface Scored {
  row: MemoryRow;
  score: number;
}

/**
 * BM25 → vector → merge (RRF or weighted) → decay → optional MMR → limit, with the early return
 * on a strong keyword hit and the LIKE fallback when ranked search finds nothing.
 */
export async function runRecall(deps: RecallDeps, request: RecallRequest): Promise<MemoryEntry[]> {
  const { limit, filter, withEmbeddings } = request;
  const query = request.query.trim();
  if (query === "" || query === "*") return mostRecent(deps.statements, filter, limit, withEmbeddings);

  const depth = Math.max(limit * 4, 40);
  let mode = request.mode;
  // Keyword-only is a supported mode; createMemory already said once why there is no provider.
  if (mode !== "bm25" && deps.embeddings === null) mode = "bm25";

  const searchKeywords = () =>
    withSessionNeighbours(
      deps.statements,
      keywordSearch(deps.statements, query, filter, depth, withEmbeddings),
      filter,
      deps.settings.sessionContextWeight,
      withEmbeddings,
    );
  let keyword: KeywordHit[] = mode === "embedding" ? [] : searchKeywords();
  let vector: Array<{ rid: number; similarity: number }> = [];
  const skipVector = mode === "hybrid" && earlyReturn(keyword, query, deps.settings.ftsEarlyReturnScore);
  if ((mode === "hybrid" && !skipVector) || mode === "embedding") {
    try {
      const queryVector = await (deps.embeddings as EmbeddingPipeline).embedQuery(query, request.signal);
      vector = deps.vectors.search(queryVector, depth, filter);
    } catch (error) {
      if (request.signal?.aborted) throw request.signal.reason ?? error;
      deps.warnOnce("query embedding failed: this recall degrades to bm25", {
        error: (error as Error).message,
        code: isMemoryError(error) ? error.code : undefined,
      });
      if (mode === "embedding")
        keyword = keywordSearch(deps.statements, query, filter, depth, withEmbeddings);
      mode = "bm25";
    }
  }

  let scored = merge(deps, mode, keyword, vector, withEmbeddings);
  scored = decay(deps, scored);
  if (deps.settings.mmrEnabled) scored = diversify(scored, deps.settings.mmrLambda, limit);
  const foundAny = scored.length > 0;
  if (request.minScore !== undefined) scored = scored.filter((s) => s.score >= (request.minScore as number));
  let top = scored.slice(0, limit);

  if (!foundAny && request.mode !== "bm25") {
    top = decay(deps, likeSearch(deps.statements, query, filter, limit, withEmbeddings));
    if (request.minScore !== undefined) top = top.filter((s) => s.score >= (request.minScore as number));
  }
  return top.map((s) => rowToEntry(s.row, s.score));
}

/** Skip the vector stage when the best keyword hit is strong and covers every query term. */
function earlyReturn(keyword: readonly KeywordHit[], query: string, threshold: number): boolean {
  const top = keyword[0];
  if (top === undefined || threshold >= 1) return false;
  return strengthOf(top.score) * termCoverage(top.row, ftsTermsOf(query)) >= threshold;
}

function merge(
  deps: RecallDeps,
  mode: SearchMode,
  keyword: readonly KeywordHit[],
  vector: ReadonlyArray<{ rid: number; similarity: number }>,
  withEmbeddings: boolean,
): Scored[] {
  if (mode === "bm25") return keyword.map((h) => ({ row: h.row, score: strengthOf(h.score) }));
  const rows = new Map(keyword.map((h) => [h.row.rid, h.row]));
  const missing = vector.filter((v) => !rows.has(v.rid)).map((v) => v.rid);
  for (const row of loadRows(deps.statements, missing, withEmbeddings)) rows.set(row.rid, row);
  if (mode === "embedding") {
    return vector.flatMap((v) => {
      const row = rows.get(v.rid);
      return row === undefined ? [] : [{ row, score: v.similarity }];
    });
  }
  const strategy = deps.settings.mergeStrategy;
  const merged =
    strategy.kind === "rrf"
      ? rrfMerge([keyword.map((h) => String(h.row.rid)), vector.map((v) => String(v.rid))], strategy.k)
      : weightedMerge(
          vector.map((v) => ({ id: String(v.rid), score: v.similarity })),
          keyword.map((h) => ({ id: String(h.row.rid), score: h.score })),
          strategy,
        );
  return merged.flatMap((m) => {
    const row = rows.get(Number(m.id));
    return row === undefined ? [] : [{ row, score: m.score }];
  });
}

function decay(deps: RecallDeps, scored: readonly Scored[]): Scored[] {
  const now = deps.now();
  const halfLife = deps.settings.decayHalfLifeDays;
  return scored
    .map((s) => ({
      row: s.row,
      score: decayFor(s.row.category, s.score, ageInDays(s.row.updated_at, now), halfLife),
    }))
    .sort((a, b) => b.score - a.score || a.row.rid - b.row.rid);
}

function diversify(scored: readonly Scored[], lambda: number, limit: number): Scored[] {
  const tokens = new Map(scored.map((s) => [s.row.rid, tokenSet(s.row.content)]));
  return mmrRerank(scored, {
    lambda,
    limit: Math.min(limit, scored.length),
    score: (s) => s.score,
    similarity: (a, b) => jaccardSimilarity(tokens.get(a.row.rid) ?? [], tokens.get(b.row.rid) ?? []),
  });
}

function loadRows(statements: StatementCache, rids: readonly number[], withEmbeddings: boolean): MemoryRow[] {
  if (rids.length === 0) return [];
  const rows: MemoryRow[] = [];
  // Chunked to stay under SQLite's bound-parameter limit.
  for (let i = 0; i < rids.length; i += 500) {
    const chunk = rids.slice(i, i + 500);
    rows.push(
      ...(statements
        .get(
          `SELECT ${entryColumns(withEmbeddings)} FROM memories m WHERE m.rid IN (${chunk.map(() => "?").join(",")})`,
        )
        .all(...chunk) as MemoryRow[]),
    );
  }
  return rows;
}

function mostRecent(
  statements: StatementCache,
  filter: EntryFilter,
  limit: number,
  withEmbeddings: boolean,
): MemoryEntry[] {
  const where = filterSql(filter);
  const rows = statements
    .get(
      `SELECT ${entryColumns(withEmbeddings)} FROM memories m WHERE 1 = 1${where.sql}
       ORDER BY m.updated_at DESC, m.rid DESC LIMIT ?`,
    )
    .all(...where.params, limit) as MemoryRow[];
  return rows.map((row) => rowToEntry(row));
}
