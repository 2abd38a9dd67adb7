// A worker thread that copies the write-ahead log of a brain.db into the database file on its own
// connection, so that a bulk write's checkpoint runs on another core while the writing thread goes
// on (wal-checkpointer.ts). PASSIVE checkpoints never block the writer or readers: frames that a
// reader still needs, or that a later commit appended, are left for the next one.
import { type MessagePort, parentPort, workerData } from "node:worker_threads";
import Database from "better-sqlite3";

/** What the writing thread sends. */
export type ToCheckpointWorker = { type: "checkpoint" } | { type: "close" };

/** The frames in the log and those now in the database file (`busy`: another checkpoint ran). */
export interface CheckpointResult {
  busy: number;
  log: number;
  checkpointed: number;
}

export type FromCheckpointWorker =
  | ({ type: "checkpointed" } & CheckpointResult)
  | { type: "failed"; message: string };

export interface CheckpointWorkerData {
  path: string;
}

if (parentPort === null) throw new Error("wal-checkpoint-worker.js runs only as a worker thread");
const port: MessagePort = parentPort;
const { path } = workerData as CheckpointWorkerData;

/** Opened on the first request: a store that never writes in bulk never opens it. */
let db: Database.Database | null = null;

function open(): Database.Database {
  const opened = new Database(path, { fileMustExist: true });
  // A checkpoint syncs the log and then the database file, as the writer's own would.
  opened.pragma("synchronous = NORMAL");
  return opened;
}

function checkpoint(): FromCheckpointWorker {
  try {
    db ??= open();
    const [row] = db.pragma("wal_checkpoint(PASSIVE)") as CheckpointResult[];
    return {
      type: "checkpointed",
      busy: row?.busy ?? 1,
      log: row?.log ?? -1,
      checkpointed: row?.checkpointed ?? -1,
    };
  } catch (error) {
    return { type: "failed", message: (error as Error).message };
  }
}

port.on("message", (message: ToCheckpointWorker) => {
  if (message.type === "checkpoint") {
    port.postMessage(checkpoint());
    return;
  }
  // The writing thread closes its connection only after this one, so that it is the last and
  // removes the log on close.
  db?.close();
  db = null;
  port.close();
});
