/**
 * The `capacity` highest-scoring items of a stream, in a typed-array min-heap: O(n) for a scan
 * whose order is unrelated to the scores, since after the first few thousand items almost every
 * score falls below the floor and costs one comparison.
 */
export class TopScores {
  private size = 0;
  private readonly scores: Float64Array;
  private readonly items: Int32Array;

  constructor(readonly capacity: number) {
    this.scores = new Float64Array(Math.max(0, capacity));
    this.items = new Int32Array(Math.max(0, capacity));
  }

  /** Scores not above this are not kept (−Infinity until the heap is full). */
  get floor(): number {
    return this.size < this.capacity ? Number.NEGATIVE_INFINITY : (this.scores[0] as number);
  }

  offer(score: number, item: number): void {
    const { scores, items, capacity } = this;
    if (this.size < capacity) {
      let child = this.size++;
      while (child > 0) {
        const parent = (child - 1) >> 1;
        if ((scores[parent] as number) <= score) break;
        scores[child] = scores[parent] as number;
        items[child] = items[parent] as number;
        child = parent;
      }
      scores[child] = score;
      items[child] = item;
      return;
    }
    if (capacity === 0 || score <= (scores[0] as number)) return;
    let parent = 0;
    for (;;) {
      let child = 2 * parent + 1;
      if (child >= capacity) break;
      if (child + 1 < capacity && (scores[child + 1] as number) < (scores[child] as number)) child++;
      if ((scores[child] as number) >= score) break;
      scores[parent] = scores[child] as number;
      items[parent] = items[child] as number;
      parent = child;
    }
    scores[parent] = score;
    items[parent] = item;
  }

  /** The kept items, in no particular order. */
  kept(): Int32Array {
    return this.items.subarray(0, this.size);
  }
}
