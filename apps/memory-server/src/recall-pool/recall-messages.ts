// What the server and its recall workers say to each other (worker_threads messages, structured clone).
import type { EmbeddingPurpose, MemoryEntry, RecallOptions } from "@claw/memory-api";
import { isMemoryError, MEMORY_ERROR_CODES, MemoryError, type MemoryErrorCode } from "@claw/memory-api";
import type { MemoryConfig } from "@claw/memory-core";

/** The provider the server's store embeds with; a worker embeds queries through the server. */
export interface WorkerEmbedding {
  provider: string;
  model: string;
  dimensions: number;
}

export interface RecallWorkerData {
  workspaceDir: string;
  config: MemoryConfig;
  embedding: WorkerEmbedding | null;
}

/** Recall options that cross a thread: everything but the signal, which stays with the caller. */
export type WorkerRecallOptions = Omit<RecallOptions, "signal">;

export interface SerializedError {
  code: MemoryErrorCode | null;
  message: string;
  field?: string;
  retryAfterSeconds?: number;
}

export type ToWorker =
  | { type: "recall"; id: number; query: string; options: WorkerRecallOptions }
  | { type: "embedded"; id: number; vectors?: Float32Array[]; error?: SerializedError }
  | { type: "close" };

export type FromWorker =
  | { type: "ready" }
  | { type: "failed"; error: SerializedError }
  | { type: "recalled"; id: number; entries?: MemoryEntry[]; error?: SerializedError }
  | { type: "embed"; id: number; texts: string[]; purpose: EmbeddingPurpose }
  | {
      type: "log";
      level: "debug" | "info" | "warn" | "error";
      message: string;
      data?: Record<string, unknown>;
    }
  | { type: "closed" };

export function serializeError(error: unknown): SerializedError {
  if (isMemoryError(error)) {
    return {
      code: error.code,
      message: error.message,
      ...(error.field === undefined ? {} : { field: error.field }),
      ...(error.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: error.retryAfterSeconds }),
    };
  }
  return { code: null, message: error instanceof Error ? error.message : String(error) };
}

/** The MemoryError a serialized one stood for; anything else becomes STORAGE, as in the store itself. */
export function deserializeError(error: SerializedError): MemoryError {
  const code = error.code !== null && MEMORY_ERROR_CODES.includes(error.code) ? error.code : "STORAGE";
  return new MemoryError(code, error.message, {
    ...(error.field === undefined ? {} : { field: error.field }),
    ...(error.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: error.retryAfterSeconds }),
  });
}
