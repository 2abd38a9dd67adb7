// Rows a killed server had claimed: once their lease runs out, any open store's sweep embeds them.
import { createHashingEmbeddingProvider } from "@claw/memory-core";
import { describe, expect, it, vi } from "vitest";
import { forEachTestDatabase } from "../test-support/test-database.js";
import { openTestMemory, schemaOf } from "../test-support/test-memory.js";

const provider = createHashingEmbeddingProvider({ dimensions: 16 });

forEachTestDatabase((database) => {
  describe("the embedding sweep and leases", () => {
    it("embeds rows whose claim outlived its server, once the lease runs out, and not before", async () => {
      // The provider is recorded first: rows written after it are the sweep's to heal.
      const first = await openTestMemory(database(), {
        embeddings: provider,
        settings: { embeddingSweepMs: 0 },
      });
      const schema = schemaOf(first);
      await first.close();
      // Rows of a server that had claimed them and died: no vector, some leases still running.
      const keywordOnly = await openTestMemory(database(), { schema });
      await keywordOnly.import(
        Array.from({ length: 6 }, (_, i) => ({ key: `k${i}`, content: `left behind ${i}` })),
      );
      const claim = (interval: string, keys: string[]) =>
        database().query(
          `UPDATE "${schema}".claw_memories SET embed_claimed_until = now() + interval '${interval}'
           WHERE key = ANY($1::text[])`,
          [keys],
        );
      await claim("1 hour", ["k0", "k1", "k2"]);
      await claim("-1 second", ["k3", "k4", "k5"]);
      const sweeper = await openTestMemory(database(), {
        schema,
        embeddings: provider,
        settings: { embeddingSweepMs: 20 },
      });
      // The expired leases are taken over; the live ones are left to their holder.
      await vi.waitFor(async () => expect((await sweeper.status()).missingEmbeddings).toBe(3), {
        timeout: 60_000,
        interval: 20,
      });
      const embedded = async () =>
        (await sweeper.export({ includeEmbeddings: true }))
          .filter((e) => e.embedding !== undefined)
          .map((e) => e.key)
          .sort();
      expect(await embedded()).toEqual(["k3", "k4", "k5"]);
      // The holder is gone: its lease runs out, and the sweep takes the rest.
      await claim("-1 second", ["k0", "k1", "k2"]);
      await vi.waitFor(async () => expect((await sweeper.status()).missingEmbeddings).toBe(0), {
        timeout: 60_000,
        interval: 20,
      });
      expect(await embedded()).toEqual(["k0", "k1", "k2", "k3", "k4", "k5"]);
    });
  });
});
