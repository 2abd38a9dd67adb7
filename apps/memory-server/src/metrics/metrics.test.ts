import { type EmbeddingProvider, MemoryError } from "@claw/memory-api";
import { createHashingEmbeddingProvider } from "@claw/memory-core";
import { describe, expect, it } from "vitest";
import { ADMIN, bearer, errorOf, openMemory, TENANT_A, testServer } from "../test-support/server-harness.js";
import { Counter, Histogram } from "./metrics-registry.js";
import { countProviderErrors } from "./provider-errors.js";
import { createServerMetrics } from "./server-metrics.js";

describe("metrics", () => {
  it("counts requests by route and status, times them, and reads entries and pending embeddings", async () => {
    const { app } = await testServer();
    const headers = bearer(ADMIN);
    await app.inject({
      method: "POST",
      url: "/v1/memories",
      headers,
      payload: { key: "a", content: "alpha" },
    });
    await app.inject({
      method: "POST",
      url: "/v1/memories",
      headers,
      payload: { key: "b", content: "beta" },
    });
    await app.inject({ method: "GET", url: "/v1/memories/a", headers });
    await app.inject({ method: "GET", url: "/v1/memories/missing", headers });
    await app.inject({ method: "POST", url: "/v1/recall", headers, payload: { query: "alpha" } });
    await app.inject({ method: "GET", url: "/v1/status" });

    const response = await app.inject({ method: "GET", url: "/metrics", headers });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/plain; version=0.0.4; charset=utf-8");
    const text = response.body;
    expect(text).toContain(
      'claw_memory_http_requests_total{method="POST",route="/v1/memories",status="200"} 2',
    );
    expect(text).toContain(
      'claw_memory_http_requests_total{method="GET",route="/v1/memories/:key",status="200"} 1',
    );
    expect(text).toContain(
      'claw_memory_http_requests_total{method="GET",route="/v1/memories/:key",status="404"} 1',
    );
    expect(text).toContain('claw_memory_http_requests_total{method="GET",route="/v1/status",status="401"} 1');
    expect(text).toContain(
      'claw_memory_http_request_duration_seconds_count{method="POST",route="/v1/memories"} 2',
    );
    expect(text).toContain('claw_memory_recall_duration_seconds_bucket{mode="hybrid",le="+Inf"} 1');
    expect(text).toContain('claw_memory_recall_duration_seconds_count{mode="hybrid"} 1');
    expect(text).toContain("claw_memory_auth_failures_total 1");
    expect(text).toContain("claw_memory_entries 2");
    expect(text).toContain("claw_memory_pending_embeddings 0");
    expect(text).toContain("claw_memory_up 1");
  });

  it("counts provider errors, even those recall degrades to keyword search", async () => {
    const metrics = createServerMetrics();
    const failing: EmbeddingProvider = {
      ...createHashingEmbeddingProvider({ dimensions: 8, id: "flaky" }),
      embed: async () => {
        throw new MemoryError("PROVIDER", "upstream 500");
      },
    };
    const memory = await openMemory({
      embeddings: countProviderErrors(failing, metrics.providerErrors),
      config: { deferEmbedding: false },
    });
    const { app } = await testServer({ memory, metrics });
    const recall = await app.inject({
      method: "POST",
      url: "/v1/recall",
      headers: bearer(ADMIN),
      payload: { query: "anything at all", mode: "embedding" },
    });
    expect(recall.statusCode).toBe(200);
    const text = (await app.inject({ method: "GET", url: "/metrics", headers: bearer(ADMIN) })).body;
    expect(text).toContain('claw_memory_provider_errors_total{code="PROVIDER",provider="flaky"} 1');
  });

  it("is only for tokens with every namespace", async () => {
    const { app } = await testServer();
    const response = await app.inject({ method: "GET", url: "/metrics", headers: bearer(TENANT_A) });
    expect(response.statusCode).toBe(403);
    expect(errorOf(response).code).toBe("FORBIDDEN");
  });

  it("writes the Prometheus text format: escaped labels, cumulative buckets", () => {
    const counter = new Counter("c_total", "Help.");
    counter.inc({ path: 'a"b\\c\nd' }, 2);
    expect(counter.render()).toBe(
      '# HELP c_total Help.\n# TYPE c_total counter\nc_total{path="a\\"b\\\\c\\nd"} 2',
    );
    const histogram = new Histogram("h_seconds", "Help.", [0.1, 1]);
    histogram.observe({}, 0.05);
    histogram.observe({}, 0.5);
    histogram.observe({}, 5);
    expect(histogram.render().split("\n").slice(2)).toEqual([
      'h_seconds_bucket{le="0.1"} 1',
      'h_seconds_bucket{le="1"} 2',
      'h_seconds_bucket{le="+Inf"} 3',
      "h_seconds_sum 5.55",
      "h_seconds_count 3",
    ]);
  });
});
