// What every route module receives: the memory, the config, the limits (from the `[server]`
// settings, or given by the caller) and the shared services.
import type { Logger, Memory, MemoryEntry, TextGenerator } from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";
import type { MemoryConfig } from "@claw/memory-core";
import type { RateLimitSettings } from "./auth/rate-limit.js";
import type { ServerMetrics } from "./metrics/server-metrics.js";

/** The request limits the server enforces; each defaults to its `[server]` setting. */
export interface ServerLimits {
  /** Largest request body (JSON routes) and largest NDJSON import line. Default `server.body_limit_bytes`. */
  bodyLimitBytes: number;
  /** Recall `limit` is capped at this. Default `server.recall_limit_max`. */
  recallLimitMax: number;
  /** List `limit` is capped at this. Default `server.list_limit_max`. */
  listLimitMax: number;
  /** Entry routes (store, get, list, recall, forget, purge) answer TIMEOUT after this long. Default `server.request_timeout_ms`. */
  requestTimeoutMs: number;
  /** Per-token token bucket; false = none. Default `server.rate_limit_burst` at once, `rate_limit_per_second` refilled. */
  rateLimit: RateLimitSettings | false;
  /** Entries validated and written per transaction while importing. Default `server.import_chunk_size`. */
  importChunkSize: number;
  /** Bad import lines reported in full (all are counted). Default `server.import_errors_reported`. */
  importErrorsReported: number;
}

export function resolveLimits(config: MemoryConfig, given: Partial<ServerLimits> = {}): ServerLimits {
  return {
    bodyLimitBytes: given.bodyLimitBytes ?? config.server.bodyLimitBytes,
    recallLimitMax:
      given.recallLimitMax ?? Math.min(config.server.recallLimitMax, config.memory.recallLimitMax),
    listLimitMax: given.listLimitMax ?? config.server.listLimitMax,
    requestTimeoutMs: given.requestTimeoutMs ?? config.server.requestTimeoutMs,
    rateLimit:
      given.rateLimit ??
      (config.server.rateLimitPerSecond === 0
        ? false
        : { capacity: config.server.rateLimitBurst, refillPerSecond: config.server.rateLimitPerSecond }),
    importChunkSize: given.importChunkSize ?? config.server.importChunkSize,
    importErrorsReported: given.importErrorsReported ?? config.server.importErrorsReported,
  };
}

export interface ServerContext {
  memory: Memory;
  /** Memory.recall, on a recall worker when the server runs some (startServer), else the memory's own. */
  recall: Memory["recall"];
  config: MemoryConfig;
  logger: Logger;
  limits: ServerLimits;
  metrics: ServerMetrics;
  /** The curator's generator; absent = curate answers UNAVAILABLE. */
  generator?: TextGenerator;
  version: string;
  /** The server's own warnings (a plaintext token in its config), reported by GET /v1/status. */
  warnings: readonly string[];
}

/** An entry as JSON: embeddings become arrays of numbers. */
export function entryJson(entry: MemoryEntry): Omit<MemoryEntry, "embedding"> & { embedding?: number[] } {
  const { embedding, ...rest } = entry;
  return embedding === undefined ? rest : { ...rest, embedding: Array.from(embedding) };
}

/**
 * Runs `work` with a signal that aborts after `ms`; the call fails with TIMEOUT then, even when
 * `work` ignores the signal (its result is dropped). fastify's own handlerTimeout is not used:
 * the fastify range this package accepts predates it.
 */
export async function withDeadline<T>(ms: number, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new MemoryError("TIMEOUT", `the request took longer than ${ms} ms`);
      controller.abort(error);
      reject(error);
    }, ms);
  });
  const running = work(controller.signal);
  // Once the deadline has answered, a late failure of `work` has nobody left to tell.
  running.catch(() => {});
  try {
    return await Promise.race([running, expired]);
  } finally {
    clearTimeout(timer);
  }
}
