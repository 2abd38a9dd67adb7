import { moreWordsThan, PASSAGE_WORDS } from "../text/word-count.js";

interface Hit<R> {
  row: R;
  score: number;
  /** The part of `score` lent by neighbours. */
  lent?: number;
}

/** The entries written just before and after a hit in its session (absent: none). */
export interface SessionNeighbours<R> {
  before?: R | undefined;
  after?: R | undefined;
}

/**
 * Conversation turns lean on each other: an answer ("For walking or running?") often shares no
 * word with the question that its neighbour matches. Each keyword hit lends `weight × its score`
 * to the entries written just before and after it in its session, as if the neighbour's words
 * were indexed with it at a lower weight. A hit that asks a question (isQuestion) lends twice that,
 * at most its whole score, to the entry after it: the reply is what answers it, and the question
 * itself holds the asker's words, not the answer. LoCoMo dev keyword recall@10 0.724 → 0.731 (stored
 * as conversation), MRR 0.543 → 0.568, on PostgreSQL 0.656 → 0.676; BEAM unchanged (its questions
 * are long messages). `neighboursOf` gives a hit's neighbours (none for entries outside sessions);
 * they must already pass the recall's filter. Best first, ties by rid.
 */
export function lendToNeighbours<R extends { rid: number; content: string }>(
  hits: readonly Hit<R>[],
  neighboursOf: (hit: Hit<R>) => SessionNeighbours<R>,
  weight: number,
): Hit<R>[] {
  if (weight <= 0 || hits.length === 0) return [...hits];
  const scored = new Map(hits.map((h) => [h.row.rid, { row: h.row, score: h.score, lent: 0 }]));
  const lend = (neighbour: R | undefined, lent: number) => {
    if (neighbour === undefined) return;
    const known = scored.get(neighbour.rid);
    if (known === undefined) scored.set(neighbour.rid, { row: neighbour, score: lent, lent });
    else {
      known.score += lent;
      known.lent += lent;
    }
  };
  const replyWeight = Math.min(1, REPLY_FACTOR * weight);
  for (const hit of hits) {
    const { before, after } = neighboursOf(hit);
    lend(before, weight * hit.score);
    lend(after, (after !== undefined && isQuestion(hit.row.content) ? replyWeight : weight) * hit.score);
  }
  return [...scored.values()].sort((a, b) => b.score - a.score || a.row.rid - b.row.rid);
}

/** How many times the usual share a question lends to its reply (capped at its whole score). */
const REPLY_FACTOR = 2;

/**
 * Whether a turn asks a question: it ends with a question mark and is no longer than a passage
 * (PASSAGE_WORDS). A longer message that ends with one mostly tells (a request with its facts,
 * as a user's message to an assistant), and lending its reply more lowered BEAM recall@10 0.513 →
 * 0.503 (stored as core).
 */
export function isQuestion(content: string): boolean {
  const text = content.trimEnd();
  const last = text.charAt(text.length - 1);
  return (last === "?" || last === "\uff1f") && !moreWordsThan(text, PASSAGE_WORDS);
}
