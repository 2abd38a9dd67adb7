// The checkpoints of bulk writes, moved off the writing thread. In WAL mode a commit that leaves the
// log over 1 000 pages copies it into the database file before returning (SQLite's automatic
// checkpoint): for a bulk import that is ~3.5 µs of its ~28 µs per entry. A write expected to leave
// that many pages runs with the automatic checkpoint off, and a worker thread
// (wal-checkpoint-worker.ts) with its own connection then checkpoints on the other core while the
// writer goes on. Smaller writes keep the automatic checkpoint: most never reach it, and starting the
// worker costs ~50 ms on the other core, which close() would wait for.
import { Worker } from "node:worker_threads";
import type { Logger } from "@claw/memory-api";
import type { Database } from "better-sqlite3";
import type {
  CheckpointResult,
  CheckpointWorkerData,
  FromCheckpointWorker,
  ToCheckpointWorker,
} from "./wal-checkpoint-worker.js";

export type { CheckpointResult };

/** SQLite's automatic checkpoint threshold, in pages, restored after each bulk write. */
export const WAL_AUTOCHECKPOINT_PAGES = 1000;

/** From src/ (tests) and dist/ alike: the built worker lives in dist/sqlite/schema/. */
const DEFAULT_WORKER_URL = new URL("../../../dist/sqlite/schema/wal-checkpoint-worker.js", import.meta.url);

export interface WalCheckpointerOptions {
  db: Database;
  logger: Logger;
  /** The compiled worker script; default the one in dist/. */
  workerUrl?: URL;
  /** Told once, with the warning, when bulk writes fall back to checkpointing on the writing thread. */
  onDegraded?: (warning: string) => void;
}

/** The warning (logged once, and given to `onDegraded`) when the worker cannot run. */
const CHECKPOINT_FALLBACK_WARNING = "bulk writes checkpoint on the writing thread";

export interface WalCheckpointer {
  /**
   * Runs `write`, expected to add about `pages` pages to the log. One of at least
   * WAL_AUTOCHECKPOINT_PAGES runs without the automatic checkpoint and the worker checkpoints
   * after it; any other runs as it is.
   */
  write<T>(pages: number, write: () => T): T;
  /** Resolves once every checkpoint asked for has run: with the last result (null: none yet). */
  settled(): Promise<CheckpointResult | null>;
  /** Whether bulk writes are checkpointed off the writing thread (false after the worker failed). */
  readonly offThread: boolean;
  /** Lets the checkpoint under way finish and stops the worker; call before closing `db`. */
  close(): Promise<void>;
}

export function createWalCheckpointer(options: WalCheckpointerOptions): WalCheckpointer {
  const { db, logger } = options;
  let worker: Worker | null = null;
  let exited: Promise<void> = Promise.resolve();
  // A database in memory has no log another connection could checkpoint.
  let failed = db.memory;
  let closed = false;
  let pending = 0;
  let last: CheckpointResult | null = null;
  let waiters: Array<(result: CheckpointResult | null) => void> = [];

  function settle(): void {
    if (pending > 0) return;
    const done = waiters;
    waiters = [];
    for (const resolve of done) resolve(last);
  }

  function fail(reason: string): void {
    if (!failed) {
      logger.warn(CHECKPOINT_FALLBACK_WARNING, { reason });
      options.onDegraded?.(`${CHECKPOINT_FALLBACK_WARNING}: ${reason}`);
    }
    failed = true;
    pending = 0;
    void worker?.terminate();
    worker = null;
    settle();
  }

  function start(): Worker | null {
    let started: Worker;
    try {
      const data: CheckpointWorkerData = { path: db.name };
      started = new Worker(options.workerUrl ?? DEFAULT_WORKER_URL, { workerData: data });
    } catch (error) {
      fail((error as Error).message);
      return null;
    }
    // A process that never closes its store can still exit; a checkpoint cut short is redone.
    started.unref();
    started.on("message", (message: FromCheckpointWorker) => {
      pending = Math.max(0, pending - 1);
      if (message.type === "failed") logger.debug("checkpoint failed", { error: message.message });
      else last = { busy: message.busy, log: message.log, checkpointed: message.checkpointed };
      settle();
    });
    started.on("error", (error) => fail(error.message));
    exited = new Promise((resolve) =>
      started.once("exit", () => {
        if (worker === started) worker = null;
        pending = 0;
        settle();
        resolve();
      }),
    );
    return started;
  }

  function send(message: ToCheckpointWorker): void {
    worker?.postMessage(message);
  }

  return {
    write(pages, write) {
      if (pages < WAL_AUTOCHECKPOINT_PAGES || failed || closed) return write();
      worker ??= start();
      if (worker === null) return write();
      db.pragma("wal_autocheckpoint = 0");
      try {
        return write();
      } finally {
        db.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
        pending++;
        send({ type: "checkpoint" });
      }
    },
    settled() {
      return new Promise((resolve) => {
        waiters.push(resolve);
        settle();
      });
    },
    get offThread() {
      return !failed;
    },
    async close() {
      closed = true;
      if (worker === null) return;
      // Requests run in order: the close waits for the checkpoints asked for before it. The worker
      // keeps the process alive until then.
      worker.ref();
      send({ type: "close" });
      await exited;
    },
  };
}
