import { describe, expect, it } from "vitest";
import type { SyncReport } from "../workspace-types.js";
import { SyncQueue } from "./sync-queue.js";

function report(n: number): SyncReport {
  return {
    added: n,
    updated: 0,
    removed: 0,
    moved: 0,
    unchanged: 0,
    files: 0,
    entriesWritten: 0,
    entriesRemoved: 0,
    reconciled: false,
    refused: [],
    errors: [],
    durationMs: 0,
  };
}

/** A run function whose syncs finish when the test says so. */
function controlledRuns() {
  const runs: Array<{ full: boolean; finish: () => void; fail: (e: Error) => void }> = [];
  const run = (full: boolean) =>
    new Promise<SyncReport>((resolve, reject) => {
      const n = runs.length + 1;
      runs.push({ full, finish: () => resolve(report(n)), fail: reject });
    });
  return { runs, run };
}

describe("SyncQueue", () => {
  it("runs one sync at a time, and all requests made meanwhile share one follow-up", async () => {
    const { runs, run } = controlledRuns();
    const queue = new SyncQueue(run);
    const first = queue.request(false);
    const second = queue.request(false);
    const third = queue.request(true);
    expect(runs).toHaveLength(1);

    runs[0]?.finish();
    expect((await first).added).toBe(1);
    await Promise.resolve();
    expect(runs.map((r) => r.full)).toEqual([false, true]);
    runs[1]?.finish();
    expect([(await second).added, (await third).added]).toEqual([2, 2]);
    await queue.idle();
    expect(runs).toHaveLength(2);
  });

  it("starts the follow-up even when the running sync fails", async () => {
    const { runs, run } = controlledRuns();
    const queue = new SyncQueue(run);
    const failing = queue.request(false);
    const next = queue.request(false);
    runs[0]?.fail(new Error("disk full"));
    await expect(failing).rejects.toThrow("disk full");
    await Promise.resolve();
    runs[1]?.finish();
    expect((await next).added).toBe(2);
  });
});
