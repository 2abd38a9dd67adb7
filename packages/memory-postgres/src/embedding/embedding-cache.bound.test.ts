// The shared embedding cache stays near its bound, evicting the least recently used in batches.
import { describe, expect, it } from "vitest";
import type { Queryable } from "../db/pool.js";
import { sqlNames } from "../db/sql-names.js";
import { forEachTestDatabase } from "../test-support/test-database.js";
import { openTestMemory, schemaOf } from "../test-support/test-memory.js";
import { createEmbeddingCache } from "./embedding-cache.js";

const MAX = 100;
/** A hundredth of the bound, at least 64 (embedding-cache.ts). */
const EVICT_EVERY = 64;

forEachTestDatabase((database) => {
  describe("embedding cache bound", () => {
    it("never holds more than the bound plus one eviction's worth, and keeps the most recent", async () => {
      const memory = await openTestMemory(database());
      const names = sqlNames(schemaOf(memory));
      const db = { query: database().query } as unknown as Queryable;
      let clock = Date.parse("2026-11-01T00:00:00Z");
      const cache = createEmbeddingCache(db, names, {
        maxEntries: MAX,
        now: () => {
          clock += 1000;
          return new Date(clock);
        },
      });
      const count = async () =>
        Number((await database().query(`SELECT count(*)::int AS n FROM ${names.cache}`)).rows[0]?.n);
      const sizes: number[] = [];
      for (let batch = 0; batch < 30; batch++) {
        const entries = Array.from(
          { length: 10 },
          (_, i) => [`h${batch * 10 + i}`, Float32Array.of(batch, i)] as const,
        );
        await cache.put("p", "m", entries);
        sizes.push(await count());
      }
      expect(Math.max(...sizes)).toBeLessThanOrEqual(MAX + EVICT_EVERY);
      expect(Math.max(...sizes)).toBeGreaterThan(MAX);
      // The newest are there with their vectors; the oldest were evicted.
      const hits = await cache.get("p", "m", ["h299", "h250", "h0"]);
      expect([...hits.keys()].sort()).toEqual(["h250", "h299"]);
      expect(Array.from(hits.get("h299") ?? [])).toEqual([29, 9]);
    });
  });
});
