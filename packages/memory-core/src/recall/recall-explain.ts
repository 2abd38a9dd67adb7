import type {
  MergeStrategy,
  RecallExplanation,
  RecallRow,
  ScoredRow,
  SearchMode,
  VectorHit,
} from "@claw/memory-api";
import { ageInDays, decayFor } from "../text/decay.js";
import { calibratedScore } from "./calibrated-score.js";
import { wordsOf } from "./long-entry.js";
import { termCoverage } from "./term-coverage.js";

/** What one recall knew when it ranked: enough to say, for any row it returned, why. */
export interface RecallEvidence {
  mode: SearchMode;
  strategy: MergeStrategy;
  terms: readonly string[];
  keyword: readonly ScoredRow<RecallRow>[];
  vector: readonly VectorHit[];
  /** Each candidate's strength in [0, 1]. */
  strengths: ReadonlyMap<number, number>;
  /** Set for the LIKE fallback (its coverage is the share of keywords found, its strength 0). */
  like?: boolean;
  coverage: (row: RecallRow) => number;
  /** The share of its keyword score an entry kept for its length (long-entry.ts). */
  lengthFactor: (row: RecallRow) => number;
  recency: (row: RecallRow) => number;
  /** Rows in the order MMR picked them, when it ran. */
  mmrOrder: readonly RecallRow[] | null;
}

/**
 * The parts of each returned row's score (RecallExplanation). Computed only for the rows
 * returned, after ranking, from what the ranking already held: the score is recomputed by the
 * same operations, so `relevance × recency` is exactly the score returned.
 */
export function explainRows<R extends RecallRow>(
  rows: readonly ScoredRow<R>[],
  evidence: RecallEvidence,
): Array<ScoredRow<R> & { explain: RecallExplanation }> {
  const keywordAt = new Map(evidence.keyword.map((h, i) => [h.row.rid, i]));
  const vectorAt = new Map(evidence.vector.map((v, i) => [v.rid, i]));
  const mmrAt = new Map(evidence.mmrOrder?.map((r, i) => [r.rid, i + 1]) ?? []);
  return rows.map(({ row, score }) => {
    const coverage = evidence.coverage(row);
    const strength = evidence.strengths.get(row.rid) ?? 0;
    const relevance = calibratedScore(coverage, strength);
    const recency = evidence.recency(row);
    const explain: RecallExplanation = {
      mode: evidence.mode,
      fusion: evidence.like === true ? "like" : fusionOf(evidence.mode, evidence.strategy),
      strength,
      coverage,
      relevance,
      recency,
      score: relevance * recency,
    };
    const factor = evidence.lengthFactor(row);
    if (factor < 1) explain.length = { words: wordsOf(row), factor };
    const k = keywordAt.get(row.rid);
    const hit = k === undefined ? undefined : evidence.keyword[k];
    if (k !== undefined && hit !== undefined) {
      explain.keyword = {
        rank: k + 1,
        score: hit.score,
        neighbour: hit.lent ?? 0,
        terms: evidence.terms.filter((term) => termCoverage(row, [term]) > 0),
      };
    }
    const v = vectorAt.get(row.rid);
    const near = v === undefined ? undefined : evidence.vector[v];
    if (v !== undefined && near !== undefined) explain.vector = { similarity: near.similarity, rank: v + 1 };
    const picked = mmrAt.get(row.rid);
    if (picked !== undefined) explain.mmr = picked;
    return { row, score, explain };
  });
}

function fusionOf(mode: SearchMode, strategy: MergeStrategy): RecallExplanation["fusion"] {
  if (mode === "bm25" || mode === "embedding") return mode;
  return strategy.kind;
}

/** The recency factor recall applies to a row (1 for core entries). */
export function recencyOf(
  settings: { decayHalfLifeDays: number; decayFloor: number },
  now: Date,
): (row: RecallRow) => number {
  const { decayHalfLifeDays: halfLife, decayFloor: floor } = settings;
  return (row) => decayFor(row.category, 1, ageInDays(row.updated_at, now), halfLife, floor);
}
