/** Percentiles and timing for the speed figures. */

/** Nearest-rank percentile of `values` (p in 0..100); NaN for an empty list. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))] as number;
}

export interface LatencySummary {
  p50: number;
  p95: number;
  p99: number;
  mean: number;
  count: number;
}

export function summarize(values: readonly number[]): LatencySummary {
  const mean = values.reduce((s, v) => s + v, 0) / Math.max(1, values.length);
  return {
    p50: percentile(values, 50),
    p95: percentile(values, 95),
    p99: percentile(values, 99),
    mean,
    count: values.length,
  };
}

/** Milliseconds taken by `fn`, measured with the monotonic clock. */
export async function timeMs(fn: () => unknown): Promise<number> {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** Runs `fn` for each input and returns the per-call latencies in ms. */
export async function measureEach<T>(inputs: readonly T[], fn: (input: T) => unknown): Promise<number[]> {
  const times: number[] = [];
  for (const input of inputs) times.push(await timeMs(() => fn(input)));
  return times;
}

/** A deterministic PRNG (mulberry32) so corpora and queries are the same in every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
