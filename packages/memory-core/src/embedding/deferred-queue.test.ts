import { describe, expect, it } from "vitest";
import { DeferredQueue } from "./deferred-queue.js";

interface Job {
  rid: number;
  text: string;
}

/** A queue whose batches are held until released, recording what ran. */
function heldQueue(concurrency = 1, batchSize = 10) {
  const ran: Job[][] = [];
  const releases: Array<() => void> = [];
  const errors: string[] = [];
  const queue = new DeferredQueue<Job>({
    concurrency,
    nextBatch: (queued) => queued.slice(0, batchSize),
    run: (batch) => {
      ran.push(batch);
      return new Promise<void>((resolve, reject) =>
        releases.push(() => (batch.some((j) => j.text === "fail") ? reject(new Error("boom")) : resolve())),
      );
    },
    onError: (error) => errors.push((error as Error).message),
  });
  const releaseAll = () => {
    for (const release of releases.splice(0)) release();
  };
  return { queue, ran, errors, releaseAll };
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("DeferredQueue", () => {
  it("joins jobs enqueued in the same turn into one batch, the newest job of a row winning", async () => {
    const { queue, ran, releaseAll } = heldQueue();
    queue.enqueue([{ rid: 1, text: "a" }]);
    queue.enqueue([{ rid: 2, text: "b" }]);
    queue.enqueue([{ rid: 1, text: "a2" }]);
    expect(queue.pending).toBe(2);
    await tick();
    expect(ran).toEqual([
      [
        { rid: 2, text: "b" },
        { rid: 1, text: "a2" },
      ],
    ]);
    releaseAll();
    await queue.flush();
    expect(queue.pending).toBe(0);
  });

  it("runs at most `concurrency` batches at once", async () => {
    const { queue, ran, releaseAll } = heldQueue(2, 1);
    queue.enqueue([1, 2, 3, 4, 5].map((rid) => ({ rid, text: `t${rid}` })));
    await tick();
    expect(ran.map((b) => b.map((j) => j.rid))).toEqual([[1], [2]]);
    releaseAll();
    await tick();
    expect(ran.map((b) => b.map((j) => j.rid))).toEqual([[1], [2], [3], [4]]);
    releaseAll();
    await tick();
    expect(ran.map((b) => b.map((j) => j.rid))).toEqual([[1], [2], [3], [4], [5]]);
    releaseAll();
    await queue.flush();
    expect(queue.pending).toBe(0);
  });

  it("gathers jobs that come while a batch runs into the next batch, until they fill more than one", async () => {
    const { queue, ran, releaseAll } = heldQueue(2, 4);
    queue.enqueue([{ rid: 1, text: "a" }]);
    await tick();
    // One at a time, as store() calls awaited one after another queue them: a batch's worth (4).
    for (const rid of [2, 3, 4, 5]) {
      queue.enqueue([{ rid, text: `t${rid}` }]);
      await tick();
    }
    expect(ran.map((b) => b.map((j) => j.rid))).toEqual([[1]]);
    expect(queue.pending).toBe(5);
    // A sixth makes more than a batch: a second batch starts beside the first.
    queue.enqueue([{ rid: 6, text: "t6" }]);
    await tick();
    expect(ran.map((b) => b.map((j) => j.rid))).toEqual([[1], [2, 3, 4, 5]]);
    queue.enqueue([{ rid: 7, text: "t7" }]);
    await tick();
    expect(ran).toHaveLength(2);
    releaseAll();
    await tick();
    expect(ran.map((b) => b.map((j) => j.rid))).toEqual([[1], [2, 3, 4, 5], [6, 7]]);
    releaseAll();
    await queue.flush();
    expect(queue.pending).toBe(0);
  });

  it("reports a failed batch and keeps going", async () => {
    const { queue, errors, releaseAll } = heldQueue(1, 1);
    queue.enqueue([
      { rid: 1, text: "fail" },
      { rid: 2, text: "ok" },
    ]);
    await tick();
    releaseAll();
    await tick();
    releaseAll();
    await queue.flush();
    expect(errors).toEqual(["boom"]);
  });

  it("drain gives up after the timeout; stop drops queued jobs and takes no more", async () => {
    const { queue, ran, releaseAll } = heldQueue(1, 1);
    queue.enqueue([
      { rid: 1, text: "a" },
      { rid: 2, text: "b" },
    ]);
    await tick();
    expect(await queue.drain(20)).toBe(false);
    queue.stop();
    queue.enqueue([{ rid: 3, text: "c" }]);
    releaseAll();
    await queue.flush();
    await tick();
    expect(ran.map((b) => b.map((j) => j.rid))).toEqual([[1]]);
    expect(queue.pending).toBe(0);
  });
});
