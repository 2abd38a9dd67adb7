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
    queue.enqueue([1, 2, 3, 4].map((rid) => ({ rid, text: `t${rid}` })));
    await tick();
    expect(ran.length).toBe(2);
    releaseAll();
    await tick();
    expect(ran.length).toBe(4);
    releaseAll();
    await queue.flush();
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
