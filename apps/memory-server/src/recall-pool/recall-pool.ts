// Recall on more than one core: worker threads, each with its own read connection to brain.db
// (SQLite in WAL mode lets readers run side by side with the server's writer). The server thread
// keeps HTTP, writes and embedding; a recall goes to the least busy worker. A write committed
// before a recall starts is visible to it: every worker reads the latest commit and drops its hot
// cache when another connection has written.
import { once } from "node:events";
import { Worker } from "node:worker_threads";
import type { Logger, Memory, MemoryEntry, RecallOptions } from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";
import type { MemoryConfig } from "@claw/memory-core";
import {
  deserializeError,
  type FromWorker,
  type RecallWorkerData,
  type SerializedError,
  serializeError,
  type ToWorker,
  type WorkerRecallOptions,
} from "./recall-messages.js";

export interface RecallPoolOptions {
  /** Worker threads; 0 = none (every recall runs on the calling thread). */
  size: number;
  workspaceDir: string;
  config: MemoryConfig;
  /** The server's store: embeds the workers' queries, and recalls itself when no worker can. */
  memory: Memory;
  logger: Logger;
  /** The compiled worker script; default the one next to this module in dist/. */
  workerUrl?: URL;
  /** How long close() waits for a worker to finish before stopping it. Default 10 s. */
  closeTimeoutMs?: number;
}

export interface RecallPool {
  /** Memory.recall, answered by a worker (or by the store itself when none is running). */
  recall(query: string, options?: RecallOptions): Promise<MemoryEntry[]>;
  /** Workers running now. */
  readonly size: number;
  /** Lets running recalls finish, then stops the workers. Later recalls run on the store itself. */
  close(): Promise<void>;
}

interface Pending {
  query: string;
  options: RecallOptions;
  resolve: (entries: MemoryEntry[]) => void;
  reject: (error: unknown) => void;
}

interface Slot {
  worker: Worker;
  pending: Map<number, Pending>;
}

/** From src/ (tests) and dist/ alike: the built worker lives in dist/recall-pool/. */
const DEFAULT_WORKER_URL = new URL("../../dist/recall-pool/recall-worker.js", import.meta.url);

/**
 * Starts `size` recall workers and resolves once each is ready or has failed. Only a SQLite store
 * is served this way; a worker that fails to start or dies is logged once, and its recalls run on
 * the store itself (recall only reads, so running one again is safe).
 */
export async function startRecallPool(options: RecallPoolOptions): Promise<RecallPool> {
  const { memory, logger } = options;
  const slots: Slot[] = [];
  let nextId = 0;
  let closed = false;

  if (options.size > 0 && memory.name === "sqlite") {
    const status = await memory.status();
    const data: RecallWorkerData = {
      workspaceDir: options.workspaceDir,
      config: options.config,
      embedding: status.embedding,
    };
    const started = await Promise.all(
      Array.from({ length: options.size }, () => startWorker(options.workerUrl ?? DEFAULT_WORKER_URL, data)),
    );
    for (const result of started) {
      if (result instanceof Worker) slots.push(attach(result));
      else logger.warn("a recall worker did not start: recalls run on the server thread", result);
    }
  }

  function attach(worker: Worker): Slot {
    const slot: Slot = { worker, pending: new Map() };
    worker.on("message", (message: FromWorker) => onMessage(slot, message));
    const lost = (reason: string) => {
      const index = slots.indexOf(slot);
      if (index < 0) return;
      slots.splice(index, 1);
      if (!closed) logger.warn("a recall worker stopped: its recalls run on the server thread", { reason });
      // Whatever it was answering is answered here instead.
      for (const call of slot.pending.values())
        memory.recall(call.query, call.options).then(call.resolve, call.reject);
      slot.pending.clear();
    };
    worker.on("error", (error) => lost(error.message));
    worker.on("exit", (code) => lost(`exit code ${code}`));
    return slot;
  }

  function onMessage(slot: Slot, message: FromWorker): void {
    if (message.type === "recalled") {
      const call = slot.pending.get(message.id);
      slot.pending.delete(message.id);
      if (call === undefined) return;
      if (message.entries !== undefined) call.resolve(message.entries);
      else call.reject(deserializeError(message.error as SerializedError));
    } else if (message.type === "embed") {
      embedFor(slot, message.id, message.texts, message.purpose);
    } else if (message.type === "log") {
      logger[message.level](`recall worker: ${message.message}`, message.data);
    }
  }

  function embedFor(slot: Slot, id: number, texts: string[], purpose: "query" | "document"): void {
    const reply = (message: ToWorker) => slot.worker.postMessage(message);
    const embedding = memory.embed?.(texts, { purpose }) ?? Promise.resolve(null);
    embedding.then(
      (vectors) =>
        reply(
          vectors === null
            ? {
                type: "embedded",
                id,
                error: { code: "UNAVAILABLE", message: "the server has no embedding provider" },
              }
            : { type: "embedded", id, vectors },
        ),
      (error: unknown) => reply({ type: "embedded", id, error: serializeError(error) }),
    );
  }

  return {
    get size() {
      return slots.length;
    },

    recall(query, recallOptions = {}) {
      const slot = closed ? undefined : leastBusy(slots);
      if (slot === undefined) return memory.recall(query, recallOptions);
      const { signal, ...rest } = recallOptions;
      signal?.throwIfAborted();
      const id = nextId++;
      return new Promise<MemoryEntry[]>((resolve, reject) => {
        // The worker cannot be interrupted mid-query; an aborted caller stops waiting for it.
        const onAbort = () => {
          slot.pending.delete(id);
          reject(signal?.reason ?? new MemoryError("TIMEOUT", "recall aborted"));
        };
        signal?.addEventListener("abort", onAbort, { once: true });
        const settle =
          <T>(fn: (value: T) => void) =>
          (value: T) => {
            signal?.removeEventListener("abort", onAbort);
            fn(value);
          };
        slot.pending.set(id, {
          query,
          options: recallOptions,
          resolve: settle(resolve),
          reject: settle(reject),
        });
        slot.worker.postMessage({ type: "recall", id, query, options: rest satisfies WorkerRecallOptions });
      });
    },

    async close() {
      if (closed) return;
      closed = true;
      const stopping = [...slots];
      await Promise.all(stopping.map((slot) => stopWorker(slot, options.closeTimeoutMs ?? 10_000)));
    },
  };
}

function leastBusy(slots: readonly Slot[]): Slot | undefined {
  let best: Slot | undefined;
  for (const slot of slots) if (best === undefined || slot.pending.size < best.pending.size) best = slot;
  return best;
}

/** The worker once it said ready, or why it could not start. */
async function startWorker(url: URL, data: RecallWorkerData): Promise<Worker | Record<string, unknown>> {
  let worker: Worker;
  try {
    worker = new Worker(url, { workerData: data });
  } catch (error) {
    return { error: (error as Error).message };
  }
  return new Promise((resolve) => {
    const onMessage = (message: FromWorker) => {
      if (message.type !== "ready" && message.type !== "failed") return;
      cleanup();
      if (message.type === "ready") resolve(worker);
      else resolve({ error: message.error.message, code: message.error.code });
    };
    const onError = (error: Error) => {
      cleanup();
      resolve({ error: error.message });
    };
    const onExit = (code: number) => {
      cleanup();
      resolve({ error: `exited with code ${code} before it was ready` });
    };
    const cleanup = () => {
      worker.off("message", onMessage);
      worker.off("error", onError);
      worker.off("exit", onExit);
    };
    worker.on("message", onMessage);
    worker.on("error", onError);
    worker.on("exit", onExit);
  });
}

/** Waits for the worker's recalls, asks it to close its store, and stops it if it takes too long. */
async function stopWorker(slot: Slot, timeoutMs: number): Promise<void> {
  const deadline = AbortSignal.timeout(timeoutMs);
  // The deadline firing first is an answer too: the worker is then terminated below.
  const exited = once(slot.worker, "exit", { signal: deadline }).catch(() => undefined);
  while (slot.pending.size > 0 && !deadline.aborted) {
    await Promise.race([once(slot.worker, "message", { signal: deadline }).catch(() => undefined), exited]);
  }
  slot.worker.postMessage({ type: "close" } satisfies ToWorker);
  await exited;
  if (!deadline.aborted) return;
  await slot.worker.terminate();
}
