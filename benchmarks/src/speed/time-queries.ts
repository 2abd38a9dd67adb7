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

/** Blocks of the engines timed against each other (claw against the full scan): 4 of 50 in CI. */
export const RATIO_BLOCKS = 4;

/**
 * Several engines on the same queries, for ratios between them that a machine's slow minutes do
 * not decide: each engine warms up first, then the queries run in `blocks` consecutive blocks, and
 * in each block every engine takes its turn, the first turn rotating from block to block. An engine
 * keeps its caches warm within a block, and a slow phase of the machine falls on all of them.
 * Results and times come back per engine, in query order.
 */
export async function timeEnginesInBlocks<const E extends readonly Engine<unknown>[]>(
  warmup: readonly CorpusQuery[],
  queries: readonly CorpusQuery[],
  engines: E,
  blocks: number,
): Promise<TimedEach<E>> {
  for (const run of engines) for (const query of warmup) await run(query);
  const timed: Timed<unknown>[] = engines.map(() => ({ times: [], results: [] }));
  const size = Math.ceil(queries.length / Math.max(1, blocks));
  for (let b = 0, start = 0; start < queries.length; b++, start += size) {
    const block = queries.slice(start, start + size);
    for (let k = 0; k < engines.length; k++) {
      const e = (b + k) % engines.length;
      const part = await timeQueries([], block, engines[e] as Engine<unknown>);
      (timed[e] as Timed<unknown>).times.push(...part.times);
      (timed[e] as Timed<unknown>).results.push(...part.results);
    }
  }
  return timed as TimedEach<E>;
}

type Engine<T> = (query: CorpusQuery) => T | Promise<T>;
/** One Timed per engine, each with that engine's result type. */
type TimedEach<E extends readonly Engine<unknown>[]> = {
  [I in keyof E]: Timed<Awaited<ReturnType<E[I]>>>;
};
