// How many cores the machine gives two busy threads right now, measured beside the server suite's
// recall rounds. A "2-core" machine shared with other work can give two threads 1.3 cores
// together (seen here: two spinning processes got 0.61 and 0.70 of a core each) or less; recall
// workers cannot raise throughput past what the machine gives, so their ratios are read against it.
import { Worker } from "node:worker_threads";

const SPINNER = `
const { parentPort } = require("node:worker_threads");
parentPort.on("message", (ms) => {
  const end = performance.now() + ms;
  let units = 0;
  let x = 0;
  while (performance.now() < end) {
    for (let i = 0; i < 20000; i++) x = (x * 1103515245 + 12345) | 0;
    units++;
  }
  parentPort.postMessage(units + (x === 0.5 ? 1 : 0));
});
`;

export interface ParallelCapacity {
  /**
   * Work two threads spinning at once got done, over what one thread alone got done in the same
   * time (the better of a spin before and a spin after the pair, so one slow moment of the lone
   * thread does not read as more than two cores).
   */
  measure(ms: number): Promise<number>;
  close(): Promise<void>;
}

/** Two spinning worker threads, kept for the suite's rounds. */
export function openParallelCapacity(): ParallelCapacity {
  const workers = [new Worker(SPINNER, { eval: true }), new Worker(SPINNER, { eval: true })] as const;
  const spin = (worker: Worker, ms: number) =>
    new Promise<number>((resolve, reject) => {
      const onError = (error: Error) => {
        worker.off("message", onMessage);
        reject(error);
      };
      const onMessage = (units: number) => {
        worker.off("error", onError);
        resolve(units);
      };
      worker.once("message", onMessage);
      worker.once("error", onError);
      worker.postMessage(ms);
    });
  return {
    async measure(ms) {
      const before = await spin(workers[0], ms);
      const [a, b] = await Promise.all([spin(workers[0], ms), spin(workers[1], ms)]);
      const alone = Math.max(before, await spin(workers[1], ms));
      return alone > 0 ? (a + b) / alone : 0;
    },
    async close() {
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}
