// A recall worker: its own read connection to the server's brain.db, answering recalls off the
// server's thread. It never writes: no backfill, no stores, and query vectors come from the server's
// provider (one provider, one set of API keys or one ONNX session, whatever the number of workers).
import { type MessagePort, parentPort, workerData } from "node:worker_threads";
import type { EmbeddingProvider, EmbedOptions, Logger, Memory } from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";
import { createMemory } from "@claw/memory-core";
import {
  deserializeError,
  type FromWorker,
  type RecallWorkerData,
  serializeError,
  type ToWorker,
  type WorkerEmbedding,
} from "./recall-messages.js";

if (parentPort === null) throw new Error("recall-worker.js runs only as a worker thread");
const port: MessagePort = parentPort;
const send = (message: FromWorker) => port.postMessage(message);

const logger: Logger = {
  debug: (message, data) => send({ type: "log", level: "debug", message, ...(data ? { data } : {}) }),
  info: (message, data) => send({ type: "log", level: "info", message, ...(data ? { data } : {}) }),
  warn: (message, data) => send({ type: "log", level: "warn", message, ...(data ? { data } : {}) }),
  error: (message, data) => send({ type: "log", level: "error", message, ...(data ? { data } : {}) }),
};

const embedCalls = new Map<number, { resolve: (v: Float32Array[]) => void; reject: (e: Error) => void }>();
let nextEmbed = 0;

/** The server's provider, seen from here: same identity (so the vectors match), embedding by message. */
function serverProvider(embedding: WorkerEmbedding): EmbeddingProvider {
  return {
    id: embedding.provider,
    model: embedding.model,
    dimensions: embedding.dimensions,
    embed(texts: readonly string[], options: EmbedOptions = {}) {
      const id = nextEmbed++;
      return new Promise<Float32Array[]>((resolve, reject) => {
        embedCalls.set(id, { resolve, reject });
        send({ type: "embed", id, texts: [...texts], purpose: options.purpose ?? "query" });
      });
    },
  };
}

async function open(data: RecallWorkerData): Promise<Memory> {
  return createMemory({
    workspaceDir: data.workspaceDir,
    config: { ...data.config, memory: { ...data.config.memory, backfillOnStartup: false } },
    embeddings: data.embedding === null ? null : serverProvider(data.embedding),
    logger,
    strict: true,
  });
}

async function serve(memory: Memory): Promise<void> {
  port.on("message", (message: ToWorker) => {
    if (message.type === "recall") {
      memory.recall(message.query, message.options).then(
        (entries) => send({ type: "recalled", id: message.id, entries }),
        (error: unknown) => send({ type: "recalled", id: message.id, error: serializeError(error) }),
      );
    } else if (message.type === "embedded") {
      const call = embedCalls.get(message.id);
      embedCalls.delete(message.id);
      if (message.vectors !== undefined) call?.resolve(message.vectors);
      else call?.reject(deserializeError(message.error ?? { code: "PROVIDER", message: "no vectors" }));
    } else if (message.type === "close") {
      for (const call of embedCalls.values())
        call.reject(new MemoryError("UNAVAILABLE", "the server is closing"));
      embedCalls.clear();
      // The pool waits for "closed" either way: this read-only connection holds nothing to save.
      const closed = () => {
        send({ type: "closed" });
        port.close();
      };
      void memory.close().then(closed, closed);
    }
  });
  send({ type: "ready" });
}

open(workerData as RecallWorkerData).then(serve, (error: unknown) => {
  send({ type: "failed", error: serializeError(error) });
  port.close();
});
