import { isMemoryError } from "@claw/memory-api";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { createEmbeddingProvider, createGeminiEmbeddings, type GeminiEmbeddingSettings } from "./index.js";
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
  vi.unstubAllEnvs();
  await server.close();
});

function norm(vector: Float32Array): number {
  return Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));
}

describe("gemini embedding requests", () => {
  test("describes itself and sends batchEmbedContents under /v1beta with the key header", async () => {
    const provider = createEmbeddingProvider({ apiKey: "key-1", baseURL: server.url });
    expect(provider).toMatchObject({
      id: "gemini",
      model: "gemini-embedding-001",
      dimensions: 3072,
      maxBatchSize: 100,
      maxInputTokens: 2048,
    });
    expect(createGeminiEmbeddings).toBe(createEmbeddingProvider);
    await provider.embed(["hello"]);
    const request = server.requests[0];
    expect(request?.path).toBe("/v1beta/models/gemini-embedding-001:batchEmbedContents");
    expect(request?.headers["x-goog-api-key"]).toBe("key-1");
    expect(request?.body).toEqual({
      requests: [
        {
          model: "models/gemini-embedding-001",
          content: { role: "user", parts: [{ text: "hello" }] },
          taskType: "RETRIEVAL_DOCUMENT",
        },
      ],
    });
  });

  test("purpose picks the task type: query → RETRIEVAL_QUERY, document (default) → RETRIEVAL_DOCUMENT", async () => {
    const provider = createEmbeddingProvider({ apiKey: "k", baseURL: server.url, dimensions: 8 });
    await provider.embed(["q"], { purpose: "query" });
    await provider.embed(["d"], { purpose: "document" });
    await provider.embed(["x"]);
    const taskTypes = server.requests.map(
      (r) => (r.body.requests as Array<{ taskType?: string }>)[0]?.taskType,
    );
    expect(taskTypes).toEqual(["RETRIEVAL_QUERY", "RETRIEVAL_DOCUMENT", "RETRIEVAL_DOCUMENT"]);
  });

  test("dimensions are sent as outputDimensionality and checked on the way back", async () => {
    const provider = createEmbeddingProvider({ apiKey: "k", baseURL: server.url, dimensions: 256 });
    expect(provider.dimensions).toBe(256);
    const [vector] = await provider.embed(["a"]);
    expect(vector).toBeInstanceOf(Float32Array);
    expect(vector).toHaveLength(256);
    expect(server.requests[0]?.body.requests).toMatchObject([
      {
        outputDimensionality: 256,
      },
    ]);
  });

  test("vectors come back in input order, one per text", async () => {
    const provider = createEmbeddingProvider({ apiKey: "k", baseURL: server.url, dimensions: 4 });
    const texts = ["alpha", "bravo", "charlie", "delta"];
    const vectors = await provider.embed(texts);
    const marks = vectors.map((v) => v[0]! / v[1]!);
    expect(marks.map((m) => Math.round(m))).toEqual(texts.map((t) => t.charCodeAt(0)));
  });

  test("truncated vectors are L2-normalised; native-size vectors pass through", async () => {
    const truncated = createEmbeddingProvider({ apiKey: "k", baseURL: server.url, dimensions: 16 });
    const [small] = await truncated.embed(["a"]);
    expect(norm(small!)).toBeCloseTo(1, 5);

    const native = createEmbeddingProvider({ apiKey: "k", baseURL: server.url });
    const [full] = await native.embed(["a"]);
    expect(full![0]).toBe("a".charCodeAt(0));
    expect(full![1]).toBe(1);
  });

  test("more than 100 texts are split into batches of at most 100", async () => {
    const provider = createEmbeddingProvider({ apiKey: "k", baseURL: server.url, dimensions: 2 });
    const vectors = await provider.embed(Array.from({ length: 230 }, (_, i) => `t${i}`));
    expect(vectors).toHaveLength(230);
    expect(server.requests.map((r) => (r.body.requests as unknown[]).length)).toEqual([100, 100, 30]);
  });

  test("no texts → no request", async () => {
    const provider = createEmbeddingProvider({ apiKey: "k", baseURL: server.url });
    expect(await provider.embed([])).toEqual([]);
    expect(server.requests).toHaveLength(0);
  });

  test("the key is read at each request, never at creation", async () => {
    let current: string | undefined;
    const read = vi.fn(() => current);
    const provider = createEmbeddingProvider({ apiKey: read, baseURL: server.url, dimensions: 2 });
    expect(read).not.toHaveBeenCalled();
    current = "first-key";
    await provider.embed(["a"]);
    current = "rotated-key";
    await provider.embed(["b"]);
    expect(server.requests.map((r) => r.headers["x-goog-api-key"])).toEqual(["first-key", "rotated-key"]);
    expect(read).toHaveBeenCalledTimes(2);
  });

  test("the environment is never read: only the apps do", async () => {
    vi.stubEnv("GEMINI_API_KEY", "env-key");
    const provider = createEmbeddingProvider({ baseURL: server.url, dimensions: 2 });
    const error = await provider.embed(["a"]).catch((e: unknown) => e);
    expect(isMemoryError(error, "PROVIDER_AUTH")).toBe(true);
    expect(server.requests).toHaveLength(0);
  });

  test("a missing key is PROVIDER_AUTH naming GEMINI_API_KEY, and nothing is sent", async () => {
    const provider = createEmbeddingProvider({ apiKey: () => undefined, baseURL: server.url });
    const error = await provider.embed(["a"]).catch((e: unknown) => e);
    expect(isMemoryError(error, "PROVIDER_AUTH")).toBe(true);
    expect((error as Error).message).toContain("GEMINI_API_KEY");
    expect((error as Error).message).toContain("providers.gemini.api_key");
    expect(server.requests).toHaveLength(0);
  });

  test("extra headers are sent; a baseURL ending in /v1beta is accepted", async () => {
    const provider = createEmbeddingProvider({
      apiKey: "k",
      baseURL: `${server.url}/v1beta/`,
      dimensions: 2,
      headers: { "x-trace": "t-1" },
    });
    await provider.embed(["a"]);
    expect(server.requests[0]?.path).toBe("/v1beta/models/gemini-embedding-001:batchEmbedContents");
    expect(server.requests[0]?.headers["x-trace"]).toBe("t-1");
  });

  test("a response of the wrong size is a PROVIDER error", async () => {
    await server.close();
    server = await startFakeGeminiServer({ embed: () => [1, 2, 3] });
    const provider = createEmbeddingProvider({ apiKey: "k", baseURL: server.url, dimensions: 4 });
    const error = await provider.embed(["a"]).catch((e: unknown) => e);
    expect(isMemoryError(error, "PROVIDER")).toBe(true);
    expect((error as Error).message).toContain("expected 4");
  });

  test("accepts the options core's resolver passes (extra keys ignored, undefined = default)", async () => {
    const fromCore: Record<string, unknown> = {
      provider: "gemini",
      apiKey: "core-key",
      baseURL: server.url,
      model: undefined,
      dimensions: undefined,
      timeoutMs: 30_000,
      workspaceDir: "/tmp/ws",
      modelBaseUrl: undefined,
    };
    const provider = createEmbeddingProvider(fromCore as GeminiEmbeddingSettings);
    expect(provider.model).toBe("gemini-embedding-001");
    expect(await provider.embed(["a"])).toHaveLength(1);
    expect(server.requests[0]?.headers["x-server-timeout"]).toBe("30");
  });

  test("bad settings are INVALID_INPUT naming the field", () => {
    const field = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        return isMemoryError(error, "INVALID_INPUT") ? error.field : "other";
      }
      return "none";
    };
    expect(field(() => createEmbeddingProvider({ dimensions: 0 }))).toBe("dimensions");
    expect(field(() => createEmbeddingProvider({ dimensions: 4096 }))).toBe("dimensions");
    expect(field(() => createEmbeddingProvider({ model: "custom-embedder" }))).toBe("dimensions");
    expect(field(() => createEmbeddingProvider({ timeoutMs: -1 }))).toBe("timeoutMs");
    expect(field(() => createEmbeddingProvider({ maxRetries: 1.5 }))).toBe("maxRetries");
    expect(field(() => createEmbeddingProvider({ baseURL: "not a url" }))).toBe("baseURL");
    expect(createEmbeddingProvider({ model: "custom-embedder", dimensions: 10 }).dimensions).toBe(10);
  });
});
