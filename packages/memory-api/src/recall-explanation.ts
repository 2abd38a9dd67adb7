/**
 * Why recall returned an entry, when asked (`RecallOptions.explain`): the parts of its score.
 *
 *   relevance = ½ × coverage^1.5 + ½ × strength      (at least 1e-6)
 *   score     = relevance × recency
 *
 * `keyword` and `vector` say where the entry stood in each ranked list, `strength` what the
 * fusion of those lists made of it, `coverage` how much of the query one passage of it holds.
 */
export interface RecallExplanation {
  /** The mode that ranked it: the mode asked for, or "bm25" when the query could not be embedded. */
  mode: "hybrid" | "embedding" | "bm25";
  /**
   * How its strength was computed: "bm25" (keyword only), "embedding" (vector only), the hybrid
   * merge ("adaptive", "rrf", "weighted"), or "like" (the substring fallback when ranked search
   * found nothing).
   */
  fusion: "bm25" | "embedding" | "adaptive" | "rrf" | "weighted" | "like";
  /** Its keyword hit, when it had one. */
  keyword?: RecallKeywordPart;
  /** Its vector hit, when it had one. */
  vector?: { similarity: number; rank: number };
  /**
   * In [0, 1]: how strongly the ranked lists put it forward, relative to the best candidate (the
   * keyword list's BM25 of an entry longer than a passage scaled by `length.factor` first).
   */
  strength: number;
  /**
   * For an entry longer than one passage (100 words), outside embedding mode: its words and the
   * share of its keyword score it keeps, (100 / words)^long_entry_exponent.
   */
  length?: { words: number; factor: number };
  /** In [0, 1]: the share of the query's terms that one passage (100 words) of it holds. */
  coverage: number;
  /** ½ × coverage^1.5 + ½ × strength. */
  relevance: number;
  /** The recency factor in [decay floor, 1] (1 for core entries). */
  recency: number;
  /** Its position (1 = first) in the list MMR diversified, when `mmr_enabled`. */
  mmr?: number;
  /** relevance × recency: the score the entry was returned with. */
  score: number;
}

/** The keyword stage's part of a recall explanation. */
export interface RecallKeywordPart {
  /** 1 = the best keyword hit. */
  rank: number;
  /** The keyword stage's score: BM25 (scaled by term coverage) plus what neighbours lent. */
  score: number;
  /** The part of `score` lent by the entries before and after it in its session. */
  neighbour: number;
  /** The query's search terms found in it (stop words dropped, compared by stem). */
  terms: string[];
}
