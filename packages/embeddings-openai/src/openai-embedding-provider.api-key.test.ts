import { isMemoryError } from "@claw/memory-api";
import { describe, expect, it, vi } from "vitest";
import { createEmbeddingProvider } from "./index.js";
import { useFakeOpenAIServer } from "./test-support/fake-openai-server.js";

const fake = await useFakeOpenAIServer();

describe("API key", () => {
  it("calls a key function at each request, never at creation", async () => {
    const keys = ["sk-first", "sk-second"];
    const apiKey = vi.fn(() => keys.shift());
    const provider = createEmbeddingProvider({ apiKey, baseURL: fake.baseURL });
    expect(apiKey).not.toHaveBeenCalled();
    await provider.embed(["a"]);
    await provider.embed(["b"]);
    expect(fake.requests.map((r) => r.headers.authorization)).toEqual([
      "Bearer sk-first",
      "Bearer sk-second",
    ]);
  });

  it("never reads the environment: only the apps do", async () => {
    vi.stubEnv("OPENAI_API_KEY", "sk-from-env");
    const provider = createEmbeddingProvider({ baseURL: fake.baseURL });
    await expect(provider.embed(["a"])).rejects.toMatchObject({ code: "PROVIDER_AUTH" });
    expect(fake.requests).toHaveLength(0);
  });

  it("fails with PROVIDER_AUTH naming the settings when there is no key, without a request", async () => {
    vi.stubEnv("OPENAI_API_KEY", "");
    const provider = createEmbeddingProvider({ apiKey: () => undefined, baseURL: fake.baseURL });
    const error = await provider.embed(["a"]).catch((e: unknown) => e);
    expect(isMemoryError(error, "PROVIDER_AUTH")).toBe(true);
    expect((error as Error).message).toContain("OPENAI_API_KEY");
    expect((error as Error).message).toContain("providers.openai.api_key");
    expect(fake.requests).toHaveLength(0);
  });

  it("sends no Authorization header to a keyless custom endpoint", async () => {
    vi.stubEnv("OPENAI_API_KEY", "sk-must-not-leak");
    const provider = createEmbeddingProvider({
      provider: "custom",
      baseURL: fake.baseURL,
      model: "local-model",
      dimensions: 8,
    });
    await provider.embed(["a"]);
    expect(fake.requests[0]?.headers).not.toHaveProperty("authorization");
  });
});
