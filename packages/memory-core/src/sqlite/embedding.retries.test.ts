import type { EmbeddingProvider } from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { createHashingEmbeddingProvider } from "../embedding/hashing-embedding-provider.js";
import { openTestMemory } from "./test-support/temp-memory.js";

/** A provider that fails its first document requests with the given errors, then works. */
function flaky(errors: MemoryError[]): EmbeddingProvider & { documentCalls: number; queryCalls: number } {
  const inner = createHashingEmbeddingProvider({ dimensions: 32 });
  const provider = {
    id: "flaky",
    model: "m",
    dimensions: 32,
    documentCalls: 0,
    queryCalls: 0,
    async embed(texts: readonly string[], options?: { purpose?: "query" | "document" }) {
      if (options?.purpose === "query") {
        provider.queryCalls++;
        const error = errors[0];
        if (error !== undefined && error.code === "PROVIDER_AUTH") throw error;
        return inner.embed(texts, options);
      }
      const error = errors[provider.documentCalls++];
      if (error !== undefined) throw error;
      return inner.embed(texts, options);
    },
  };
  return provider;
}

describe("embedding retries", () => {
  it("retries 429 and 5xx with the provider's Retry-After, then writes the vectors", async () => {
    const provider = flaky([
      new MemoryError("RATE_LIMITED", "429", { retryAfterSeconds: 0.001 }),
      new MemoryError("PROVIDER", "503", { retryable: true, retryAfterSeconds: 0.001 }),
    ]);
    const memory = openTestMemory({ embeddings: provider });
    await memory.store("a", "green tea in the afternoon");
    await memory.flush();
    expect(provider.documentCalls).toBe(3);
    expect((await memory.status()).missingEmbeddings).toBe(0);
    expect((await memory.recall("green tea", { mode: "embedding" })).map((e) => e.key)).toEqual(["a"]);
  });

  it("does not retry a rejected key, keeps the entry keyword-searchable and says why", async () => {
    const provider = flaky([
      new MemoryError("PROVIDER_AUTH", "invalid key"),
      new MemoryError("PROVIDER_AUTH", "x"),
    ]);
    const memory = openTestMemory({ embeddings: provider });
    await memory.store("a", "green tea in the afternoon");
    await memory.flush();
    expect(provider.documentCalls).toBe(1);
    const status = await memory.status();
    expect(status.missingEmbeddings).toBe(1);
    expect(status.embeddingUnavailableReason).toBe("invalid key");
    expect((await memory.recall("green tea")).map((e) => e.key)).toEqual(["a"]);
  });

  it("gives up after embedding_max_retries and leaves the entry for backfill", async () => {
    const busy = () => new MemoryError("RATE_LIMITED", "429", { retryAfterSeconds: 0 });
    const provider = flaky([busy(), busy(), busy()]);
    const memory = openTestMemory({ embeddings: provider, settings: { embeddingMaxRetries: 1 } });
    await memory.store("a", "green tea in the afternoon");
    await memory.flush();
    expect(provider.documentCalls).toBe(2);
    expect((await memory.status()).missingEmbeddings).toBe(1);
    expect((await memory.status()).embeddingUnavailableReason).toBe("429");
    expect(await memory.backfillEmbeddings()).toBe(1);
    const status = await memory.status();
    expect(status.missingEmbeddings).toBe(0);
    expect(status.embeddingUnavailableReason).toBeUndefined();
  });
});
