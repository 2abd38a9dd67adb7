// Gemini batch mode through the real @google/genai SDK against the loopback fake. The request
// bodies asserted here are what the SDK (2.32) sends, captured against the fake.
import { isMemoryError } from "@claw/memory-api";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { createEmbeddingProvider } from "./index.js";
import {
  type FakeGeminiServer,
  firstCharVector,
  startFakeGeminiServer,
} from "./test-support/fake-gemini-server.js";

let server: FakeGeminiServer;

beforeEach(async () => {
  server = await startFakeGeminiServer({ embed: firstCharVector });
});

afterEach(async () => {
  vi.restoreAllMocks();
  await server.close();
});

function batchJobs(dimensions?: number) {
  const provider = createEmbeddingProvider({
    apiKey: "key-1",
    baseURL: server.url,
    ...(dimensions === undefined ? {} : { dimensions }),
  });
  if (provider.batchJobs === undefined) throw new Error("the Gemini provider should offer batchJobs");
  return provider.batchJobs;
}

function marker(vector: Float32Array | undefined): number | undefined {
  return vector?.[0];
}

describe("Gemini batch jobs", () => {
  test("sends inlined requests to :asyncBatchEmbedContent, polls batches/{id} until JOB_STATE_SUCCEEDED", async () => {
    server.scriptNextBatch({ completeAfterPolls: 2 });
    const statuses: string[] = [];

    const vectors = await batchJobs().embedInBatchJob(["apple", "banana"], {
      pollIntervalMs: 1,
      onStatus: (status) => statuses.push(status),
    });

    expect(vectors.map(marker)).toEqual(["a".charCodeAt(0), "b".charCodeAt(0)]);
    expect(vectors.every((v) => v.length === 3072)).toBe(true);
    expect(statuses).toEqual(["JOB_STATE_PENDING", "JOB_STATE_RUNNING", "JOB_STATE_SUCCEEDED"]);
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "POST /v1beta/models/gemini-embedding-001:asyncBatchEmbedContent",
      "GET /v1beta/batches/fake1",
      "GET /v1beta/batches/fake1",
    ]);
    expect(server.requests[0]?.headers["x-goog-api-key"]).toBe("key-1");
    expect(server.requests[0]?.body).toEqual({
      batch: {
        displayName: "claw-memory embeddings",
        inputConfig: {
          requests: {
            requests: [
              {
                request: {
                  content: { role: "user", parts: [{ text: "apple" }] },
                  taskType: "RETRIEVAL_DOCUMENT",
                },
              },
              {
                request: {
                  content: { role: "user", parts: [{ text: "banana" }] },
                  taskType: "RETRIEVAL_DOCUMENT",
                },
              },
            ],
          },
        },
      },
    });
  });

  test("sends RETRIEVAL_QUERY for queries and outputDimensionality, and normalises truncated vectors", async () => {
    const [vector] = await batchJobs(8).embedInBatchJob(["q"], { purpose: "query", pollIntervalMs: 1 });

    const batch = server.requests[0]?.body.batch as { inputConfig: { requests: { requests: unknown[] } } };
    const requests = batch.inputConfig.requests.requests;
    expect(requests).toEqual([
      {
        request: {
          content: { role: "user", parts: [{ text: "q" }] },
          taskType: "RETRIEVAL_QUERY",
          outputDimensionality: 8,
        },
      },
    ]);
    const norm = Math.sqrt(Array.from(vector ?? []).reduce((sum, x) => sum + x * x, 0));
    expect(norm).toBeCloseTo(1, 6);
    expect(vector?.length).toBe(8);
  });

  test("writes nothing to the console (the SDK's public createEmbeddings warns that it is experimental)", async () => {
    const warn = vi.spyOn(console, "warn");
    const log = vi.spyOn(console, "log");

    await batchJobs(4).embedInBatchJob(["x"], { pollIntervalMs: 1 });

    expect(warn).not.toHaveBeenCalled();
    expect(log).not.toHaveBeenCalled();
  });

  test.each([
    [3, "PROVIDER"],
    [16, "PROVIDER_AUTH"],
    [8, "RATE_LIMITED"],
  ] as const)("fails the job when a request fails with code %i, as %s", async (code, memoryCode) => {
    server.scriptNextBatch({
      itemError: (_request, index) => (index === 1 ? { code, message: "request rejected" } : undefined),
    });

    const error = await batchJobs(4)
      .embedInBatchJob(["a", "b", "c"], { pollIntervalMs: 1 })
      .catch((e: unknown) => e);

    expect(isMemoryError(error, memoryCode)).toBe(true);
    expect((error as Error).message).toBe(
      "gemini: batch batches/fake1: 1 of 3 requests failed (request rejected)",
    );
  });

  test("fails the job when every request failed", async () => {
    server.scriptNextBatch({ itemError: () => ({ code: 3, message: "all bad" }) });

    await expect(batchJobs(4).embedInBatchJob(["a", "b"], { pollIntervalMs: 1 })).rejects.toThrow(
      "gemini: batch batches/fake1: 2 of 2 requests failed (all bad)",
    );
  });

  test.each([
    ["failed", "PROVIDER", "gemini: batch batches/fake1 failed"],
    ["expired", "TIMEOUT", "gemini: batch batches/fake1 expired before it completed"],
    ["cancelled", "PROVIDER", "gemini: batch batches/fake1 was cancelled"],
  ] as const)("rejects a %s job as %s", async (outcome, code, message) => {
    server.scriptNextBatch({ outcome });

    const error = await batchJobs(4)
      .embedInBatchJob(["a"], { pollIntervalMs: 1 })
      .catch((e: unknown) => e);

    expect(isMemoryError(error, code)).toBe(true);
    expect((error as Error).message).toBe(message);
  });

  test("stops polling when aborted, cancels the job, and rejects with the abort reason", async () => {
    server.scriptNextBatch({ completeAfterPolls: 1_000 });
    const controller = new AbortController();
    const reason = new Error("stop now");

    const job = batchJobs(4).embedInBatchJob(["a"], {
      pollIntervalMs: 1,
      signal: controller.signal,
      onStatus: (status) => {
        if (status === "JOB_STATE_RUNNING") controller.abort(reason);
      },
    });

    await expect(job).rejects.toBe(reason);
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "POST /v1beta/models/gemini-embedding-001:asyncBatchEmbedContent",
      "GET /v1beta/batches/fake1",
      "POST /v1beta/batches/fake1:cancel",
    ]);
  });

  test("keeps polling through a failed poll (503)", async () => {
    const vectors = await batchJobs(4).embedInBatchJob(["a"], {
      pollIntervalMs: 1,
      onStatus: (status) => {
        if (status === "JOB_STATE_PENDING") server.failNext(1, { status: 503 });
      },
    });

    expect(vectors.map(marker)).toEqual([expect.any(Number)]);
    expect(server.requests.filter((r) => r.method === "GET")).toHaveLength(2);
  });

  test("describes its limits, rejects more texts than a job takes, and can be turned off", async () => {
    const jobs = batchJobs();
    expect(jobs.maxTextsPerJob).toBe(1000);
    expect(jobs.maxCharsPerJob).toBe(5_000_000);
    await expect(jobs.embedInBatchJob(Array.from({ length: 1001 }, () => "x"))).rejects.toSatisfy((e) =>
      isMemoryError(e, "INVALID_INPUT"),
    );
    expect(await jobs.embedInBatchJob([])).toEqual([]);
    expect(server.requests).toHaveLength(0);
    expect(createEmbeddingProvider({ apiKey: "k", batchApi: false }).batchJobs).toBeUndefined();
  });
});
