import type { EmbeddingProvider, Memory } from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";
import { describe, expect, it, onTestFinished, vi } from "vitest";
import { createHashingEmbeddingProvider } from "../embedding/hashing-embedding-provider.js";
import { type MemoryContractHarness, openContractMemory } from "./contract-harness.js";

/** A provider that refuses every document request while `down` is set (an outage). */
function outageProvider(inner: EmbeddingProvider) {
  const state = { down: false };
  const provider: EmbeddingProvider = {
    id: inner.id,
    model: inner.model,
    dimensions: inner.dimensions,
    async embed(texts, options) {
      if (state.down) throw new MemoryError("PROVIDER", "the provider is down");
      return inner.embed(texts, options);
    },
  };
  return { provider, state };
}

const SWEEPING = { embeddingSweepMs: 20, embeddingMaxRetries: 0 };

/** The sweep that embeds what a killed process or an outage left without a vector. */
export function describeEmbeddingSweepContract(harness: MemoryContractHarness): void {
  const reopen = async (memory: Memory, options = {}) => {
    const again = await harness.reopen(memory, options);
    onTestFinished(() => again.close());
    return again;
  };
  const missing = async (memory: Memory) => (await memory.status()).missingEmbeddings;
  const embeddedKeys = async (memory: Memory) =>
    (await memory.export({ includeEmbeddings: true }))
      .filter((e) => e.embedding !== undefined)
      .map((e) => e.key)
      .sort();

  describe("embedding sweep", () => {
    it("embeds entries whose job was lost, without a backfill; entries from before the provider wait for one", async () => {
      const plain = await openContractMemory(harness);
      await plain.store("before", "written while no provider was set");
      await plain.close();
      const outage = outageProvider(createHashingEmbeddingProvider({ dimensions: 32 }));
      const memory = await reopen(plain, { embeddings: outage.provider, settings: SWEEPING });
      outage.state.down = true;
      await memory.store("lost-1", "stored during the outage");
      await memory.import([{ key: "lost-2", content: "imported during the outage" }]);
      await memory.flush();
      expect(await missing(memory)).toBe(3);
      outage.state.down = false;
      await vi.waitFor(async () => expect(await missing(memory)).toBe(1), { timeout: 60_000, interval: 20 });
      expect(await embeddedKeys(memory)).toEqual(["lost-1", "lost-2"]);
      expect(
        (await memory.recall("outage", { mode: "embedding", limit: 2 })).map((e) => e.key).sort(),
      ).toEqual(["lost-1", "lost-2"]);
      // The entry from before the provider is left to an explicit backfill.
      expect(await memory.backfillEmbeddings()).toBe(1);
      expect(await missing(memory)).toBe(0);
    });

    it("a store reopened after its process left jobs behind heals on its own", async () => {
      const outage = outageProvider(createHashingEmbeddingProvider({ dimensions: 16 }));
      const first = await openContractMemory(harness, {
        embeddings: outage.provider,
        settings: { embeddingMaxRetries: 0 },
      });
      outage.state.down = true;
      for (let i = 0; i < 5; i++) await first.store(`k${i}`, `entry number ${i}`);
      await first.close();
      outage.state.down = false;
      const again = await reopen(first, { embeddings: outage.provider, settings: SWEEPING });
      await vi.waitFor(async () => expect(await missing(again)).toBe(0), { timeout: 60_000, interval: 20 });
      expect(await embeddedKeys(again)).toEqual(["k0", "k1", "k2", "k3", "k4"]);
    });
  });
}
