import type { ConflictMode, ConflictScore, ConflictSide } from "@claw/memory-api";
import { cosineSimilarity, jaccardSimilarity, tokenizeWords, tokenSet } from "@claw/memory-core";
import { bm25Overlap } from "./bm25-overlap.js";
import { contradictionSignals, SIGNAL_BOOST } from "./contradiction-signals.js";

/** Seed 000: the contradiction boost enters the total with this weight. */
export const CONTRADICTION_WEIGHT = 0.3;

/** The conflict measure used unless configured: 0.4 Jaccard + 0.4 cosine + 0.2 BM25 overlap. */
export const DEFAULT_CONFLICT_MODE: ConflictMode = {
  kind: "combined",
  jaccardWeight: 0.4,
  cosineWeight: 0.4,
  bm25Weight: 0.2,
};

/**
 * Scores how strongly `b` conflicts with `a` (seed 000): a similarity (word-set Jaccard, or in
 * combined mode 0.4·Jaccard + 0.4·cosine + 0.2·BM25 overlap, falling back to plain Jaccard when
 * either side has no embedding) plus 0.3 × the contradiction boosts. The caller compares `total`
 * with its threshold.
 */
export function detectConflict(
  a: ConflictSide,
  b: ConflictSide,
  mode: ConflictMode = DEFAULT_CONFLICT_MODE,
): ConflictScore {
  const jaccard = jaccardSimilarity(tokenSet(a.content), tokenSet(b.content));
  const tokensA = tokenizeWords(a.content);
  const tokensB = tokenizeWords(b.content);
  const signals = contradictionSignals(tokensA, tokensB, jaccard, a.content === b.content);
  const contradiction = round(signals.reduce((sum, s) => sum + SIGNAL_BOOST[s], 0));
  const vectors =
    a.embedding && b.embedding && a.embedding.length === b.embedding.length && a.embedding.length > 0
      ? ([a.embedding, b.embedding] as const)
      : null;
  if (mode.kind === "combined" && vectors !== null) {
    const cosine = Math.max(0, cosineSimilarity(vectors[0], vectors[1]));
    const bm25 = bm25Overlap(tokensA, tokensB);
    const similarity = mode.jaccardWeight * jaccard + mode.cosineWeight * cosine + mode.bm25Weight * bm25;
    return finish({ jaccard, cosine, bm25, similarity, contradiction, signals, mode: "combined" });
  }
  return finish({ jaccard, similarity: jaccard, contradiction, signals, mode: "jaccard" });
}

function finish(score: Omit<ConflictScore, "total">): ConflictScore {
  return { ...score, total: round(score.similarity + score.contradiction * CONTRADICTION_WEIGHT) };
}

function round(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}
