// The recall pipeline's stages and their order, for every backend: a store supplies the searches
// (RecallSource) and this decides how their results become one ranked list.
import type {
  MergeStrategy,
  RecalledRow,
  RecallRow,
  RecallSource,
  ScoredRow,
  SearchMode,
  VectorHit,
} from "@claw/memory-api";
import { isMemoryError } from "@claw/memory-api";
import { ageInDays, decayFor } from "../text/decay.js";
import { ftsTermsOf } from "../text/fts-query.js";
import { jaccardSimilarity, tokenSet } from "../text/jaccard.js";
import { adaptiveFusion } from "./adaptive-fusion.js";
import { calibratedScore, relativeCosines, relativeToBest } from "./calibrated-score.js";
import { strengthOf } from "./keyword-score.js";
import { lengthFactorOf } from "./long-entry.js";
import { mmrRerank } from "./mmr.js";
import { explainRows, recencyOf } from "./recall-explain.js";
import { rrfMerge } from "./rrf-merge.js";
import { coverageOf } from "./term-coverage.js";
import { weightedMerge } from "./weighted-merge.js";

export type { RecalledRow, RecallRow, RecallSource, ScoredRow, VectorHit };

export interface RecallEngineSettings {
  mergeStrategy: MergeStrategy;
  ftsEarlyReturnScore: number;
  decayHalfLifeDays: number;
  decayFloor: number;
  mmrEnabled: boolean;
  mmrLambda: number;
  /** Entries longer than a passage keep (passage / words)^this of their keyword score (long-entry.ts). */
  longEntryExponent: number;
}

export interface RecallEngineRequest {
  query: string;
  limit: number;
  mode: SearchMode;
  minScore?: number;
  signal?: AbortSignal;
  /** Ages are measured from here; default `deps.now()`. */
  now?: Date;
  /** Give each row the parts of its score (recall-explain.ts). */
  explain?: boolean;
}

export interface RecallEngineDeps {
  settings: RecallEngineSettings;
  now: () => Date;
  /** Logs a degradation once per reason, not once per query. */
  warnOnce: (reason: string, data?: Record<string, unknown>) => void;
}

/**
 * BM25 → vector → fusion (adaptive, RRF or weighted) → calibrated scores over every candidate
 * (term coverage and fused strength, calibrated-score.ts) → bounded recency → optional MMR →
 * minScore → limit, with the early return on a strong keyword hit, degradation to BM25 when the
 * query cannot be embedded, and the LIKE fallback when ranked search finds nothing.
 */
export async function runRecallEngine<R extends RecallRow>(
  source: RecallSource<R>,
  deps: RecallEngineDeps,
  request: RecallEngineRequest,
): Promise<RecalledRow<R>[]> {
  const { limit } = request;
  const query = request.query.trim();
  if (query === "" || query === "*") {
    return (await source.mostRecent(limit)).map((row) => ({ row }));
  }
  const now = request.now ?? deps.now();
  const terms = ftsTermsOf(query);
  const cover = coverageOf(terms);
  const depth = Math.max(limit * 4, CANDIDATES_MIN);
  let mode = request.mode;
  // Keyword-only is a supported mode; the store already said once why there is no provider.
  if (mode !== "bm25" && source.embedQuery === null) mode = "bm25";

  const embed = source.embedQuery as (query: string, signal?: AbortSignal) => Promise<Float32Array>;
  const vectorStage = async () => source.vector(await embed(query, request.signal), depth);
  // A source whose searches run side by side starts the vector stage beside the keyword one (its
  // result dropped when the keyword stage returns early); its failure is met where it is awaited.
  const started = mode === "hybrid" && source.concurrent === true ? vectorStage() : null;
  started?.catch(() => {});
  let keyword: ScoredRow<R>[] = mode === "embedding" ? [] : await source.keyword(query, depth);
  let vector: VectorHit[] = [];
  const skipVector = mode === "hybrid" && earlyReturn(keyword, cover, deps.settings.ftsEarlyReturnScore);
  if ((mode === "hybrid" && !skipVector) || mode === "embedding") {
    try {
      vector = await (started ?? vectorStage());
    } catch (error) {
      if (request.signal?.aborted) throw request.signal.reason ?? error;
      deps.warnOnce("query embedding failed: this recall degrades to bm25", {
        error: (error as Error).message,
        code: isMemoryError(error) ? error.code : undefined,
      });
      if (mode === "embedding") keyword = await source.keyword(query, depth);
      mode = "bm25";
    }
  }

  const { settings } = deps;
  const fused = await fuse(source, settings, mode, keyword, vector, cover);
  let scored = decay(settings, now, fused.scored);
  let mmrOrder: RecallRow[] | null = null;
  if (settings.mmrEnabled) {
    scored = diversify(scored, settings.mmrLambda, limit);
    if (request.explain === true) mmrOrder = scored.map((s) => s.row);
  }
  const foundAny = scored.length > 0;
  const minScore = request.minScore;
  if (minScore !== undefined) scored = scored.filter((s) => s.score >= minScore);
  let top = scored.slice(0, limit);
  // The LIKE fallback's coverage is its share of keywords found (its strength 0).
  let likeShares: Map<number, number> | null = null;

  if (!foundAny && request.mode !== "bm25") {
    const shares = new Map<number, number>();
    const like = (await source.like(query, limit)).map((h) => {
      shares.set(h.row.rid, h.score);
      return { row: h.row, score: calibratedScore(h.score, 0) };
    });
    likeShares = shares;
    top = decay(settings, now, like);
    if (minScore !== undefined) top = top.filter((s) => s.score >= minScore);
  }
  if (request.explain !== true) return top;
  // Only what ranking already held.
  const held = { mode, strategy: settings.mergeStrategy, terms, recency: recencyOf(settings, now) };
  const shares = likeShares;
  return explainRows(
    top,
    shares === null
      ? {
          ...held,
          keyword,
          vector,
          strengths: fused.strengths,
          coverage: fused.coverage,
          lengthFactor: fused.lengthFactor,
          mmrOrder,
        }
      : {
          ...held,
          keyword: [],
          vector: [],
          strengths: new Map(),
          mmrOrder: null,
          like: true,
          coverage: (row) => shares.get(row.rid) ?? 0,
          lengthFactor: () => 1,
        },
  );
}

/** Candidates taken from each list and re-ranked, whatever the limit. */
const CANDIDATES_MIN = 40;

/** Skip the vector stage when the best keyword hit is strong and covers every query term. */
function earlyReturn(
  keyword: readonly ScoredRow<RecallRow>[],
  cover: (row: RecallRow) => number,
  threshold: number,
): boolean {
  const top = keyword[0];
  if (top === undefined || threshold >= 1) return false;
  return strengthOf(top.score) * cover(top.row) >= threshold;
}

/**
 * Every candidate's calibrated score: its coverage of the query's terms and its strength in the
 * mode's lists (the keyword list's BM25, the vector list's cosine, or their fusion). Best first.
 */
async function fuse<R extends RecallRow>(
  source: RecallSource<R>,
  settings: RecallEngineSettings,
  mode: SearchMode,
  keyword: readonly ScoredRow<R>[],
  vector: readonly VectorHit[],
  cover: (row: RecallRow) => number,
): Promise<Fused<R>> {
  const rows = new Map(keyword.map((h) => [h.row.rid, h.row]));
  const missing = vector.filter((v) => !rows.has(v.rid)).map((v) => v.rid);
  if (missing.length > 0) for (const row of await source.rows(missing)) rows.set(row.rid, row);
  const coverage = new Map<number, number>();
  const coverageOfRid = (rid: number): number => {
    let c = coverage.get(rid);
    if (c === undefined) {
      const row = rows.get(rid);
      c = row === undefined ? 0 : cover(row);
      coverage.set(rid, c);
    }
    return c;
  };
  // A long entry's keyword score is scaled before fusion (long-entry.ts); vectors are left as they
  // are, a long entry's vector being already the mean of its parts. Scaling the fused strength
  // instead: BEAM keyword recall@10 0.504 / 0.489 (core / conversation) against 0.513 / 0.492.
  const lengthFactor = lengthFactorOf(mode === "embedding" ? 0 : settings.longEntryExponent);
  const keywordScaled = scaledByLength(keyword, lengthFactor);
  const strengths = strengthsOf(settings.mergeStrategy, mode, keywordScaled, vector, coverageOfRid);
  const scored: RankedRow<R>[] = [];
  for (const [rid, strength] of strengths) {
    const row = rows.get(rid);
    if (row === undefined) continue;
    const score = calibratedScore(coverageOfRid(rid), strength);
    // Embedding mode keeps the vector order (what the user asked for: similarity, not words); the
    // score still has the one meaning of every mode.
    scored.push({ row, score, rank: mode === "embedding" ? strength : score });
  }
  return { scored, strengths, coverage: (row) => coverageOfRid(row.rid), lengthFactor };
}

/** The keyword hits with long entries' scores scaled, best first; the same list when none is long. */
function scaledByLength<H extends ScoredRow<RecallRow>>(
  keyword: readonly H[],
  factor: (row: RecallRow) => number,
): readonly H[] {
  const factors = keyword.map((h) => factor(h.row));
  if (factors.every((f) => f === 1)) return keyword;
  return keyword
    .map((h, i) => ({ ...h, score: h.score * (factors[i] ?? 1) }))
    .sort((x, y) => y.score - x.score);
}

/** The candidates scored, with each one's strength and the coverage function they were scored by. */
interface Fused<R extends RecallRow> {
  scored: RankedRow<R>[];
  strengths: ReadonlyMap<number, number>;
  coverage: (row: RecallRow) => number;
  /** What each candidate's keyword score was scaled by for its length. */
  lengthFactor: (row: RecallRow) => number;
}

/** Each candidate's strength in [0, 1] under the mode and merge strategy. */
function strengthsOf(
  strategy: MergeStrategy,
  mode: SearchMode,
  keyword: readonly ScoredRow<RecallRow>[],
  vector: readonly VectorHit[],
  coverageOfRid: (rid: number) => number,
): Map<number, number> {
  if (mode === "bm25") {
    const relative = relativeToBest(keyword.map((h) => h.score));
    return new Map(keyword.map((h, i) => [h.row.rid, relative[i] ?? 0]));
  }
  if (mode === "embedding") {
    const relative = relativeCosines(vector.map((v) => v.similarity));
    return new Map(vector.map((v, i) => [v.rid, relative[i] ?? 0]));
  }
  if (strategy.kind === "adaptive") {
    const top = keyword[0];
    return adaptiveFusion(
      keyword.map((h) => ({ id: h.row.rid, score: h.score })),
      vector.map((v) => ({ id: v.rid, similarity: v.similarity })),
      { keywordCoverage: top === undefined ? 0 : coverageOfRid(top.row.rid) },
    );
  }
  const merged =
    strategy.kind === "rrf"
      ? rrfMerge([keyword.map((h) => String(h.row.rid)), vector.map((v) => String(v.rid))], strategy.k)
      : weightedMerge(
          vector.map((v) => ({ id: String(v.rid), score: v.similarity })),
          keyword.map((h) => ({ id: String(h.row.rid), score: h.score })),
          strategy,
        );
  const relative = relativeToBest(merged.map((m) => m.score));
  return new Map(merged.map((m, i) => [Number(m.id), relative[i] ?? 0]));
}

/** A scored row and the key it is ordered by (its score, or in embedding mode its similarity). */
type RankedRow<R extends RecallRow> = ScoredRow<R> & { rank?: number };

/**
 * Bounded recency for everything but core entries (on the score and the order key alike), then
 * best first (ties by rid).
 */
function decay<R extends RecallRow>(
  settings: RecallEngineSettings,
  now: Date,
  scored: readonly RankedRow<R>[],
): ScoredRow<R>[] {
  const { decayHalfLifeDays: halfLife, decayFloor: floor } = settings;
  return scored
    .map((s) => {
      const kept = decayFor(s.row.category, 1, ageInDays(s.row.updated_at, now), halfLife, floor);
      return { row: s.row, score: s.score * kept, rank: (s.rank ?? s.score) * kept };
    })
    .sort((a, b) => b.rank - a.rank || b.score - a.score || a.row.rid - b.row.rid)
    .map(({ row, score }) => ({ row, score }));
}

function diversify<R extends RecallRow>(
  scored: readonly ScoredRow<R>[],
  lambda: number,
  limit: number,
): ScoredRow<R>[] {
  const tokens = new Map(scored.map((s) => [s.row.rid, tokenSet(s.row.content)]));
  return mmrRerank(scored, {
    lambda,
    limit: Math.min(limit, scored.length),
    score: (s) => s.score,
    similarity: (a, b) => jaccardSimilarity(tokens.get(a.row.rid) ?? [], tokens.get(b.row.rid) ?? []),
  });
}
