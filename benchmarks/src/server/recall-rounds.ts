// The server suite's recall ratios, measured so that a machine whose load changes between phases
// does not decide them: the three ways of recalling (directly on the store, over HTTP with recall
// on the server's one thread, over HTTP with recall workers) run one after the other in short
// rounds, in a rotating order, and each ratio is the median of the ratios within a round.
import autocannon from "autocannon";
import { percentile } from "../stats.js";

export interface Load {
  reqPerS: number;
  p50: number;
  p99: number;
  errors: number;
}

/** autocannon against a loopback server: completed requests/s, latency percentiles, non-2xx as errors. */
export async function load(options: autocannon.Options): Promise<Load> {
  const result = await autocannon({ connections: 10, ...options });
  return {
    reqPerS: result.duration > 0 ? result.requests.total / result.duration : 0,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

/** How long a way runs: for a time, or for a number of recalls (the warm-up). */
export type Span = { seconds: number } | { requests: number };

export interface RecallSources {
  /** Recalls per second made directly on the store, one at a time. */
  direct(span: Span): Promise<number>;
  /** HTTP load on the server without recall workers. */
  single(span: Span): Promise<Load>;
  /** HTTP load on the server with its default recall workers. */
  workers(span: Span): Promise<Load>;
  /** Cores the machine gives two busy threads right now (see parallel-capacity.ts). */
  capacity(): Promise<number>;
}

export interface RecallRound {
  capacity: number;
  directPerS: number;
  single: Load;
  workers: Load;
}

export interface RecallRoundsSummary {
  rounds: readonly RecallRound[];
  /** Median over the rounds of the cores two busy threads got. */
  capacity: number;
  directPerS: number;
  /** Per-round medians of req/s, p50 and p99; errors summed over the rounds. */
  single: Load;
  workers: Load;
  /** Median over the rounds of workers req/s ÷ direct recalls/s within the round. */
  httpVsDirect: number;
  /** The same, each round's ratio divided by the cores the machine gave in that round. */
  httpVsDirectPerCore: number;
  /** Median over the rounds of workers req/s ÷ single-thread req/s within the round. */
  workersVsSingle: number;
}

type Way = "direct" | "single" | "workers";
const WAYS: readonly Way[] = ["direct", "single", "workers"];

/**
 * An unmeasured warm-up of each way, then `rounds` rounds: the machine's capacity, then `seconds`
 * per way; round r starts with way r mod 3, so no way is always measured first or last. The warm-up is a number of
 * recalls, not a time: a fresh server process costs about twice its steady CPU per recall for its
 * first few thousand requests (JIT; with recall workers, each warms its own), and a busy machine gets through fewer.
 */
export async function measureRecallRounds(
  sources: RecallSources,
  options: { rounds: number; seconds: number; warmupRequests: number },
): Promise<RecallRoundsSummary> {
  for (const way of WAYS) await sources[way]({ requests: options.warmupRequests });
  const rounds: RecallRound[] = [];
  for (let r = 0; r < options.rounds; r++) {
    const round: Partial<RecallRound> = { capacity: await sources.capacity() };
    for (let k = 0; k < WAYS.length; k++) {
      const way = WAYS[(r + k) % WAYS.length] as Way;
      const span = { seconds: options.seconds };
      if (way === "direct") round.directPerS = await sources.direct(span);
      else round[way] = await sources[way](span);
    }
    rounds.push(round as RecallRound);
  }
  return summariseRounds(rounds);
}

export function summariseRounds(rounds: readonly RecallRound[]): RecallRoundsSummary {
  if (rounds.length === 0) throw new Error("no recall rounds measured");
  const median = (values: number[]) => percentile(values, 50);
  const loadOf = (pick: (round: RecallRound) => Load): Load => ({
    reqPerS: median(rounds.map((r) => pick(r).reqPerS)),
    p50: median(rounds.map((r) => pick(r).p50)),
    p99: median(rounds.map((r) => pick(r).p99)),
    errors: rounds.reduce((sum, r) => sum + pick(r).errors, 0),
  });
  return {
    rounds,
    capacity: median(rounds.map((r) => r.capacity)),
    directPerS: median(rounds.map((r) => r.directPerS)),
    single: loadOf((r) => r.single),
    workers: loadOf((r) => r.workers),
    httpVsDirect: median(rounds.map((r) => r.workers.reqPerS / r.directPerS)),
    httpVsDirectPerCore: median(rounds.map((r) => r.workers.reqPerS / r.directPerS / r.capacity)),
    workersVsSingle: median(rounds.map((r) => r.workers.reqPerS / r.single.reqPerS)),
  };
}
