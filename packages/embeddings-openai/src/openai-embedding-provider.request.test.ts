import { isMemoryError } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { createEmbeddingProvider, createOpenAIEmbeddings } from "./index.js";
import { defaultEmbedder, useFakeOpenAIServer } from "./test-support/fake-openai-server.js";

const fake = await useFakeOpenAIServer();

const texts = ["alpha", "beta", "gamma"];

describe("embedding requests", () => {
  it("sends model, input, dimensions and encoding_format float", async () => {
    const provider = createEmbeddingProvider({ apiKey: "sk-test", baseURL: fake.baseURL, dimensions: 256 });
    await provider.embed(texts);
    const [request] = fake.embeddingRequests();
    expect(request?.path).toBe("/v1/embeddings");
    expect(request?.body).toEqual({
      model: "text-embedding-3-small",
      input: texts,
      dimensions: 256,
      encoding_format: "float",
    });
  });

  it("decodes float and base64 answers to the same vectors", async () => {
    const provider = createEmbeddingProvider({ apiKey: "sk-test", baseURL: fake.baseURL, dimensions: 64 });
    fake.answerEncoding("float");
    const fromFloat = await provider.embed(texts);
    fake.answerEncoding("base64");
    const fromBase64 = await provider.embed(texts);
    expect(fromBase64).toEqual(fromFloat);
    expect(fromFloat).toEqual(await defaultEmbedder(texts, 64));
    expect(fromFloat.every((v) => v instanceof Float32Array && v.length === 64)).toBe(true);
  });

  it("returns vectors in input order when the server lists them out of order", async () => {
    const provider = createEmbeddingProvider({ apiKey: "sk-test", baseURL: fake.baseURL, dimensions: 32 });
    fake.reverseOrder(true);
    expect(await provider.embed(texts)).toEqual(await defaultEmbedder(texts, 32));
  });

  it("sends the same request for query and document purposes", async () => {
    const provider = createEmbeddingProvider({ apiKey: "sk-test", baseURL: fake.baseURL });
    const query = await provider.embed(["x"], { purpose: "query" });
    const document = await provider.embed(["x"], { purpose: "document" });
    const [a, b] = fake.embeddingRequests();
    expect(a?.body).toEqual(b?.body);
    expect(a?.body).not.toHaveProperty("input_type");
    expect(query).toEqual(document);
  });

  it("rejects an answer of the wrong size as PROVIDER", async () => {
    const provider = createEmbeddingProvider({ apiKey: "sk-test", baseURL: fake.baseURL, dimensions: 8 });
    fake.setEmbedder((input) => input.map(() => new Float32Array(7)));
    try {
      await expect(provider.embed(["a"])).rejects.toSatisfy((e) => isMemoryError(e, "PROVIDER"));
    } finally {
      fake.setEmbedder(defaultEmbedder);
    }
  });

  it("returns [] for no texts without a request", async () => {
    const provider = createEmbeddingProvider({ apiKey: "sk-test", baseURL: fake.baseURL });
    expect(await provider.embed([])).toEqual([]);
    expect(fake.requests).toHaveLength(0);
  });
});

describe("models and dimensions", () => {
  it("describes the default model", () => {
    const provider = createOpenAIEmbeddings({ apiKey: "sk-test" });
    expect(provider).toMatchObject({
      id: "openai",
      model: "text-embedding-3-small",
      dimensions: 1536,
      maxBatchSize: 2048,
      maxInputTokens: 8191,
    });
    expect(createEmbeddingProvider({ model: "text-embedding-3-large" }).dimensions).toBe(3072);
  });

  it("does not send dimensions for text-embedding-ada-002", async () => {
    const provider = createEmbeddingProvider({
      apiKey: "sk-test",
      baseURL: fake.baseURL,
      model: "text-embedding-ada-002",
    });
    expect(provider.dimensions).toBe(1536);
    await provider.embed(["a"]);
    expect(fake.embeddingRequests()[0]?.body).not.toHaveProperty("dimensions");
  });

  it("needs dimensions for an unknown model, naming the field", () => {
    expect(() => createEmbeddingProvider({ model: "nomic-embed-text" })).toThrow(
      expect.objectContaining({ code: "INVALID_INPUT", field: "dimensions" }),
    );
    expect(() => createEmbeddingProvider({ model: "text-embedding-ada-002", dimensions: 512 })).toThrow(
      expect.objectContaining({ code: "INVALID_INPUT", field: "dimensions" }),
    );
  });
});

describe("endpoints", () => {
  it("sends to a custom endpoint with its configured dimensions", async () => {
    const provider = createEmbeddingProvider({
      provider: "custom",
      apiKey: "local",
      baseURL: `${fake.origin}/custom/v1`,
      model: "nomic-embed-text",
      dimensions: 16,
    });
    expect(provider.id).toBe("custom");
    expect(await provider.embed(["a"])).toHaveLength(1);
    const [request] = fake.embeddingRequests();
    expect(request?.path).toBe("/custom/v1/embeddings");
    expect(request?.body).toMatchObject({ model: "nomic-embed-text", dimensions: 16 });
  });

  it("requires baseURL for a custom endpoint, naming the field", () => {
    expect(() => createEmbeddingProvider({ provider: "custom", model: "m", dimensions: 4 })).toThrow(
      expect.objectContaining({ code: "INVALID_INPUT", field: "baseURL" }),
    );
  });

  it("uses OpenRouter's base URL, extra headers and the fetch override", async () => {
    const seen: string[] = [];
    const provider = createEmbeddingProvider({
      provider: "openrouter",
      apiKey: "sk-or-test",
      model: "openai/text-embedding-3-small",
      headers: { "X-Title": "claw-memory" },
      // Sends what the SDK addressed to openrouter.ai to the loopback server instead.
      fetch: (input, init) => {
        const url = String(input instanceof Request ? input.url : input);
        seen.push(url);
        return fetch(url.replace("https://openrouter.ai", fake.origin), init);
      },
    });
    expect(provider).toMatchObject({ id: "openrouter", dimensions: 1536 });
    await provider.embed(["a"]);
    expect(seen).toEqual(["https://openrouter.ai/api/v1/embeddings"]);
    const [request] = fake.embeddingRequests();
    expect(request?.headers["x-title"]).toBe("claw-memory");
    expect(request?.headers.authorization).toBe("Bearer sk-or-test");
    expect(request?.body).toMatchObject({ model: "openai/text-embedding-3-small", dimensions: 1536 });
  });
});
