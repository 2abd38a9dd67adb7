interface Hit<R> {
  row: R;
  score: number;
  /** The part of `score` lent by neighbours. */
  lent?: number;
}

/**
 * Conversation turns lean on each other: an answer ("For walking or running?") often shares no
 * word with the question that its neighbour matches. Each keyword hit lends `weight × its score`
 * to the entries written just before and after it in its session, as if the neighbour's words
 * were indexed with it at a lower weight. `neighboursOf` gives those entries for a hit (none for
 * entries outside sessions); they must already pass the recall's filter. Best first, ties by rid.
 */
export function lendToNeighbours<R extends { rid: number }>(
  hits: readonly Hit<R>[],
  neighboursOf: (hit: Hit<R>) => readonly R[],
  weight: number,
): Hit<R>[] {
  if (weight <= 0 || hits.length === 0) return [...hits];
  const scored = new Map(hits.map((h) => [h.row.rid, { row: h.row, score: h.score, lent: 0 }]));
  for (const hit of hits) {
    for (const neighbour of neighboursOf(hit)) {
      const known = scored.get(neighbour.rid);
      const lent = weight * hit.score;
      if (known === undefined) scored.set(neighbour.rid, { row: neighbour, score: lent, lent });
      else {
        known.score += lent;
        known.lent += lent;
      }
    }
  }
  return [...scored.values()].sort((a, b) => b.score - a.score || a.row.rid - b.row.rid);
}
