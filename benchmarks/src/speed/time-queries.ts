/** Query timing shared by every engine of the speed suite, so all are timed the same way. */
import type { CorpusQuery } from "./corpus.js";

export interface Timed<T> {
  /** Milliseconds per timed query, in query order. */
  times: number[];
  results: T[];
}

/** Warm-up queries first (untimed), then each timed query alone on the monotonic clock. */
export async function timeQueries<T>(
  warmup: readonly CorpusQuery[],
  queries: readonly CorpusQuery[],
  run: (query: CorpusQuery) => T | Promise<T>,
): Promise<Timed<T>> {
  for (const query of warmup) await run(query);
  const times: number[] = [];
  const results: T[] = [];
  for (const query of queries) {
    const start = process.hrtime.bigint();
    results.push(await run(query));
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return { times, results };
}
