import { createHashingEmbeddingProvider } from "@claw/memory-core";
import { captureProcessWarnings } from "@claw/memory-core/testkit";
import { describe, expect, it } from "vitest";
import { forEachTestDatabase } from "./test-support/test-database.js";
import { openTestMemory } from "./test-support/test-memory.js";

const MODES = ["hybrid", "embedding", "bm25"] as const;

forEachTestDatabase((database) => {
  describe("from open to close", () => {
    it("emits no process warning: open, store, recall in every mode (one by one and at once), close", async () => {
      const warnings = captureProcessWarnings();

      const memory = await openTestMemory(database(), {
        embeddings: createHashingEmbeddingProvider({ dimensions: 64 }),
      });
      await memory.store("tomatoes", "tomatoes against the south wall");
      await memory.store("basil", "basil in pots on the balcony");
      await memory.flush();
      for (const mode of MODES) {
        expect((await memory.recall("tomatoes wall", { mode }))[0]?.key).toBe("tomatoes");
      }
      // At once, the recalls take every connection of the pool, opening the ones it lacks.
      const together = await Promise.all(MODES.map((mode) => memory.recall("basil balcony", { mode })));
      expect(together.map((hits) => hits[0]?.key)).toEqual(["basil", "basil", "basil"]);
      await memory.close();
      // Node emits a warning on the next tick: let it arrive.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).toEqual([]);
    });
  });
});
