import type { Logger } from "@claw/memory-api";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startMissingSweep } from "./missing-sweep.js";

function recordingLogger() {
  const lines: string[] = [];
  const logger: Logger = {
    debug: () => {},
    info: (message) => lines.push(`info ${message}`),
    warn: (message) => lines.push(`warn ${message}`),
    error: (message) => lines.push(`error ${message}`),
  };
  return { logger, lines };
}

describe("startMissingSweep", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("sweeps once per interval, never while busy, never two at once", async () => {
    let busy = false;
    let finish: (n: number) => void = () => {};
    const sweep = vi.fn(() => new Promise<number>((resolve) => (finish = resolve)));
    const { logger, lines } = recordingLogger();
    const sweeper = startMissingSweep({ intervalMs: 100, sweep, busy: () => busy, logger });
    await vi.advanceTimersByTimeAsync(99);
    expect(sweep).toHaveBeenCalledTimes(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(sweep).toHaveBeenCalledTimes(1);
    // Still running: later ticks start nothing.
    await vi.advanceTimersByTimeAsync(500);
    expect(sweep).toHaveBeenCalledTimes(1);
    expect(sweeper.running).not.toBeNull();
    finish(3);
    await sweeper.running;
    expect(sweeper.running).toBeNull();
    expect(lines).toEqual(["info embedded entries left without a vector"]);
    busy = true;
    await vi.advanceTimersByTimeAsync(1000);
    expect(sweep).toHaveBeenCalledTimes(1);
    busy = false;
    await vi.advanceTimersByTimeAsync(100);
    expect(sweep).toHaveBeenCalledTimes(2);
    finish(0);
    sweeper.stop();
    await vi.advanceTimersByTimeAsync(1000);
    expect(sweep).toHaveBeenCalledTimes(2);
  });

  it("an interval of 0 never sweeps", async () => {
    const sweep = vi.fn(async () => 0);
    startMissingSweep({ intervalMs: 0, sweep, busy: () => false, logger: recordingLogger().logger });
    await vi.advanceTimersByTimeAsync(86_400_000);
    expect(sweep).not.toHaveBeenCalled();
  });

  it("warns once per run of failures and retries at the next interval", async () => {
    let failures = 2;
    const sweep = vi.fn(async () => {
      if (failures-- > 0) throw new Error("provider down");
      return 1;
    });
    const { logger, lines } = recordingLogger();
    const sweeper = startMissingSweep({ intervalMs: 10, sweep, busy: () => false, logger });
    await vi.advanceTimersByTimeAsync(30);
    sweeper.stop();
    expect(sweep).toHaveBeenCalledTimes(3);
    expect(lines).toEqual([
      "warn could not embed entries left without a vector; retrying later",
      "info embedded entries left without a vector",
    ]);
  });
});
