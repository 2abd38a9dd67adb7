import type { Logger } from "@claw/memory-api";

export interface MissingSweepOptions {
  /** Milliseconds between two sweeps; 0 = no sweeping. */
  intervalMs: number;
  /** Embeds what still lacks a vector and is not claimed by anyone; resolves to the vectors written. */
  sweep: () => Promise<number>;
  /** True while other work will embed the rows anyway (queued jobs, a running backfill). */
  busy: () => boolean;
  logger: Logger;
}

export interface MissingSweep {
  /** The sweep under way, if any (the store waits for it on close). */
  readonly running: Promise<void> | null;
  stop(): void;
}

/**
 * Every `intervalMs`, embeds the rows that still lack a vector and that nobody is embedding: rows a
 * process left when it was killed before its queued jobs ran, or whose lease ran out
 * (PostgreSQL), so a crash heals without an operator calling backfill. The timer never keeps the
 * process alive; a sweep never overlaps another one, queued jobs or a backfill. A failure (the
 * provider is down) is logged once until a sweep succeeds again: the next sweep retries.
 */
export function startMissingSweep(options: MissingSweepOptions): MissingSweep {
  let running: Promise<void> | null = null;
  let failing = false;

  async function sweepOnce(): Promise<void> {
    try {
      const written = await options.sweep();
      if (written > 0) options.logger.info("embedded entries left without a vector", { written });
      failing = false;
    } catch (error) {
      if (!failing) {
        options.logger.warn("could not embed entries left without a vector; retrying later", {
          error: (error as Error).message,
        });
      }
      failing = true;
    }
  }

  const timer =
    options.intervalMs > 0
      ? setInterval(() => {
          if (running !== null || options.busy()) return;
          running = sweepOnce().finally(() => {
            running = null;
          });
        }, options.intervalMs)
      : null;
  timer?.unref();

  return {
    get running() {
      return running;
    },
    stop() {
      if (timer !== null) clearInterval(timer);
    },
  };
}
