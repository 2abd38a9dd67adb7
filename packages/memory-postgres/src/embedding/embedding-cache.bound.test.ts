// The shared embedding cache stays near its bound, evicting the least recently used in batches.
import pg from "pg";
import { describe, expect, it } from "vitest";
import type { Queryable } from "../db/pool.js";
import { sqlNames } from "../db/sql-names.js";
import { forEachTestDatabase } from "../test-support/test-database.js";
import { openTestMemory, schemaOf } from "../test-support/test-memory.js";
import { createEmbeddingCache } from "./embedding-cache.js";

const MAX = 100;
/** A tenth of the bound, at least 64 (embedding-cache.ts). */
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

    it("two servers putting, evicting and touching the same entries at once never wait on each other for ever", async () => {
      // Each put here evicts (a batch of 80 > 64): evictions of both servers run side by side with
      // the other's inserts and lookups over the same hashes, which a deadlock would reject.
      const memory = await openTestMemory(database());
      const names = sqlNames(schemaOf(memory));
      const pools = [0, 1].map(() => new pg.Pool({ connectionString: database().url, max: 3 }));
      try {
        let clock = Date.parse("2026-11-01T00:00:00Z");
        const now = () => {
          clock += 1000;
          return new Date(clock);
        };
        const caches = pools.map((pool) => createEmbeddingCache(pool, names, { maxEntries: 50, now }));
        const hashes = (round: number) => Array.from({ length: 80 }, (_, i) => `h${(round * 37 + i) % 200}`);
        const work = Array.from({ length: 24 }, (_, round) => {
          const cache = caches[round % 2] as (typeof caches)[number];
          const entries = hashes(round).map((h, i) => [h, Float32Array.of(round, i)] as const);
          return round % 3 === 2 ? cache.get("p", "m", hashes(round - 1)) : cache.put("p", "m", entries);
        });
        const settled = await Promise.allSettled(work);
        expect(settled.filter((r) => r.status === "rejected")).toEqual([]);
        const { rows } = await database().query(`SELECT count(*)::int AS n FROM ${names.cache}`);
        expect(Number(rows[0]?.n)).toBeGreaterThan(0);
        expect(Number(rows[0]?.n)).toBeLessThanOrEqual(200);
      } finally {
        await Promise.all(pools.map((pool) => pool.end()));
      }
    });
  });
});
