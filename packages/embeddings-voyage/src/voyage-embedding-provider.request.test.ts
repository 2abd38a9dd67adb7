import { isMemoryError } from "@claw/memory-api";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeVoyageServer, startFakeVoyageServer } from "./test-support/fake-voyage-server.js";
import { createEmbeddingProvider, createVoyageEmbeddings } from "./voyage-embedding-provider.js";

let server: FakeVoyageServer;

beforeEach(async () => {
  server = await startFakeVoyageServer({ reverseOrder: true });
});
afterEach(async () => {
  await server.close();
});

describe("voyage provider: requests on the wire", () => {
  it("posts to {baseURL}/embeddings with the model and the texts", async () => {
    const provider = createEmbeddingProvider({ apiKey: "k1", baseURL: server.baseURL });
    await provider.embed(["alpha", "beta"]);
    const [request] = server.requests;
    expect(request?.method).toBe("POST");
    expect(request?.path).toBe("/v1/embeddings");
    expect(request?.body.model).toBe("voyage-3.5");
    expect(request?.body.input).toEqual(["alpha", "beta"]);
    expect(request?.body).not.toHaveProperty("output_dimension");
  });

  it("maps purpose to input_type, defaulting to document", async () => {
    const provider = createEmbeddingProvider({ apiKey: "k1", baseURL: server.baseURL });
    await provider.embed(["q"], { purpose: "query" });
    await provider.embed(["d"], { purpose: "document" });
    await provider.embed(["x"]);
    expect(server.requests.map((r) => r.body.input_type)).toEqual(["query", "document", "document"]);
  });

  it("sends dimensions as output_dimension and returns vectors of that size", async () => {
    const provider = createEmbeddingProvider({
      apiKey: "k1",
      baseURL: server.baseURL,
      model: "voyage-3-large",
      dimensions: 512,
    });
    expect(provider.dimensions).toBe(512);
    const [vector] = await provider.embed(["hello"]);
    expect(server.requests[0]?.body.output_dimension).toBe(512);
    expect(vector).toBeInstanceOf(Float32Array);
    expect(vector?.length).toBe(512);
  });

  it("returns one vector per input in input order, whatever order the data comes in", async () => {
    const provider = createEmbeddingProvider({ apiKey: "k1", baseURL: server.baseURL });
    const texts = ["a", "bbb", "cc", "dddd"];
    const vectors = await provider.embed(texts);
    // The fake puts the text length in the first component and answers in reverse.
    expect(vectors.map((v) => v[0])).toEqual([1, 3, 2, 4]);
  });

  it("reads the key on every request, never at creation", async () => {
    let key: string | undefined;
    let reads = 0;
    const provider = createEmbeddingProvider({
      apiKey: () => {
        reads++;
        return key;
      },
      baseURL: server.baseURL,
    });
    expect(reads).toBe(0);
    key = "first-key";
    await provider.embed(["a"]);
    key = "second-key";
    await provider.embed(["b"]);
    expect(server.requests.map((r) => r.headers.authorization)).toEqual([
      "Bearer first-key",
      "Bearer second-key",
    ]);
  });

  it("sends extra headers and does not call the API for an empty batch", async () => {
    const provider = createVoyageEmbeddings({
      apiKey: "k1",
      baseURL: `${server.baseURL}/`,
      headers: { "x-trace": "t-1" },
    });
    expect(await provider.embed([])).toEqual([]);
    expect(server.requests).toHaveLength(0);
    await provider.embed(["a"]);
    expect(server.requests[0]?.headers["x-trace"]).toBe("t-1");
    expect(server.requests[0]?.path).toBe("/v1/embeddings");
  });

  it("describes itself for core's batching and fingerprint", () => {
    const provider = createEmbeddingProvider({ apiKey: "k1" });
    expect(provider).toMatchObject({
      id: "voyage",
      model: "voyage-3.5",
      dimensions: 1024,
      maxBatchSize: 1000,
      maxInputTokens: 32000,
    });
    expect(createEmbeddingProvider({ model: "voyage-multilingual-2" }).dimensions).toBe(1024);
  });

  it("rejects a response whose vectors do not have the configured size", async () => {
    await server.close();
    server = await startFakeVoyageServer({ embed: (texts) => texts.map(() => [1, 2, 3]) });
    const provider = createEmbeddingProvider({ apiKey: "k1", baseURL: server.baseURL });
    const error = await provider.embed(["a"]).catch((e: unknown) => e);
    expect(isMemoryError(error, "PROVIDER")).toBe(true);
    expect((error as Error).message).toMatch(/expected 1024/);
  });
});

describe("voyage provider: settings", () => {
  it("needs dimensions for a model it does not know", () => {
    const error = (() => {
      try {
        createEmbeddingProvider({ model: "voyage-next" });
      } catch (e) {
        return e;
      }
    })();
    expect(isMemoryError(error, "INVALID_INPUT")).toBe(true);
    expect((error as { field?: string }).field).toBe("dimensions");
    expect((error as Error).message).toContain("dimensions");
    expect(createEmbeddingProvider({ model: "voyage-next", dimensions: 768 }).dimensions).toBe(768);
  });

  it("rejects sizes the model cannot produce and malformed settings, naming the field", () => {
    const fieldOf = (fn: () => unknown) => {
      try {
        fn();
      } catch (e) {
        return isMemoryError(e, "INVALID_INPUT") ? e.field : "not INVALID_INPUT";
      }
      return "no error";
    };
    expect(fieldOf(() => createEmbeddingProvider({ dimensions: 300 }))).toBe("dimensions");
    expect(fieldOf(() => createEmbeddingProvider({ model: "voyage-multilingual-2", dimensions: 512 }))).toBe(
      "dimensions",
    );
    expect(fieldOf(() => createEmbeddingProvider({ baseURL: "not a url" }))).toBe("baseURL");
    expect(fieldOf(() => createEmbeddingProvider({ timeoutMs: 0 }))).toBe("timeoutMs");
    expect(fieldOf(() => createEmbeddingProvider({ maxRetries: -1 }))).toBe("maxRetries");
    expect(fieldOf(() => createEmbeddingProvider({ model: "" }))).toBe("model");
  });
});
