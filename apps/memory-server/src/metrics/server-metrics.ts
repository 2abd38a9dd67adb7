// The server's metrics: request counts and latencies by route, recall latency, provider errors,
// auth failures and rate-limit refusals; entries and embedding backlog are read at scrape time.
import type { Memory } from "@claw/memory-api";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { Counter, Histogram, MetricsRegistry, renderGauge } from "./metrics-registry.js";

/** The server's Prometheus metrics, served at `/metrics`. */
export interface ServerMetrics {
  readonly registry: MetricsRegistry;
  /** claw_memory_http_requests_total{method,route,status} */
  readonly requests: Counter;
  /** claw_memory_http_request_duration_seconds{method,route} */
  readonly requestDuration: Histogram;
  /** claw_memory_recall_duration_seconds{mode} */
  readonly recallDuration: Histogram;
  /** claw_memory_provider_errors_total{provider,code} */
  readonly providerErrors: Counter;
  /** claw_memory_auth_failures_total */
  readonly authFailures: Counter;
  /** claw_memory_rate_limited_total{token} */
  readonly rateLimited: Counter;
}

/** A fresh set of the server's metrics. */
export function createServerMetrics(): ServerMetrics {
  const registry = new MetricsRegistry();
  return {
    registry,
    requests: registry.add(new Counter("claw_memory_http_requests_total", "HTTP requests answered.")),
    requestDuration: registry.add(
      new Histogram("claw_memory_http_request_duration_seconds", "HTTP request latency in seconds."),
    ),
    recallDuration: registry.add(
      new Histogram("claw_memory_recall_duration_seconds", "Latency of memory.recall in seconds."),
    ),
    providerErrors: registry.add(
      new Counter("claw_memory_provider_errors_total", "Failed embedding provider calls."),
    ),
    authFailures: registry.add(
      new Counter("claw_memory_auth_failures_total", "Requests refused for a missing or wrong token."),
    ),
    rateLimited: registry.add(
      new Counter("claw_memory_rate_limited_total", "Requests refused by the per-token rate limit."),
    ),
  };
}

/** The route pattern as a label: unknown URLs share one value, so they cannot blow up the series. */
export function routeLabel(request: FastifyRequest): string {
  return request.routeOptions.url ?? "unmatched";
}

/** Records one answered request. */
export function recordRequest(
  metrics: ServerMetrics,
  request: FastifyRequest,
  status: number,
  elapsedMs: number,
): void {
  const route = routeLabel(request);
  metrics.requests.inc({ method: request.method, route, status: String(status) });
  metrics.requestDuration.observe({ method: request.method, route }, elapsedMs / 1000);
}

export function registerRequestMetrics(app: FastifyInstance, metrics: ServerMetrics): void {
  app.addHook("onResponse", async (request: FastifyRequest, reply: FastifyReply) => {
    recordRequest(metrics, request, reply.statusCode, reply.elapsedTime);
  });
}

/** The Prometheus text: the counters and histograms, then gauges read from the memory now. */
export async function renderMetrics(metrics: ServerMetrics, memory: Memory): Promise<string> {
  const status = await memory.status();
  const healthy = await memory.healthCheck();
  return metrics.registry.render([
    renderGauge("claw_memory_entries", "Entries in the store.", status.entries),
    renderGauge("claw_memory_namespaces", "Namespaces in the store.", status.namespaces),
    renderGauge(
      "claw_memory_pending_embeddings",
      "Deferred embeddings not written yet.",
      status.pendingEmbeddings,
    ),
    renderGauge(
      "claw_memory_missing_embeddings",
      "Entries without a vector (backfill embeds them).",
      status.missingEmbeddings,
    ),
    renderGauge("claw_memory_up", "1 when the store answers a health check.", healthy ? 1 : 0),
  ]);
}
