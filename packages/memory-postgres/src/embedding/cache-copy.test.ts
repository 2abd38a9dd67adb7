// With a writer of many entries (COPY on a real server), new embedding cache entries wait for the
// import they were embedded for and reach the table by one COPY; a store() carries only a few.
import { contentHash, createHashingEmbeddingProvider, DEFAULT_CONFIG } from "@claw/memory-core";
import { countingProvider } from "@claw/memory-core/testkit";
import pg from "pg";
import { describe, expect, it, onTestFinished } from "vitest";
import { endPool, type Queryable } from "../db/pool.js";
import { sqlNames } from "../db/sql-names.js";
import { PostgresMemory } from "../postgres-memory.js";
import { countedPool } from "../test-support/counted-pool.js";
import { forEachTestDatabase } from "../test-support/test-database.js";
import { openTestMemory, schemaOf } from "../test-support/test-memory.js";
import { cacheCopyWriter } from "./cache-copy.js";
import { createEmbeddingCache, PENDING_MAX, type PendingCacheEntries } from "./embedding-cache.js";

const entry = (i: number) => [`h${String(i).padStart(4, "0")}`, Float32Array.of(i, -i / 3)] as const;

forEachTestDatabase((database) => {
  describe("embedding cache entries written many at once", () => {
    it("wait past the statement limit, are carried by no store, and go to the writer in key order", async () => {
      const memory = await openTestMemory(database());
      const names = sqlNames(schemaOf(memory));
      const written: PendingCacheEntries[] = [];
      const cache = createEmbeddingCache(database() as unknown as Queryable, names, {
        maxEntries: 100_000,
        now: () => new Date("2026-11-30T00:00:00Z"),
        writeMany: async (entries) => {
          written.push(entries);
        },
      });
      // A new cache's first put evicts, and so writes what waits: one entry, by the INSERT.
      await cache.put("p", "m", [entry(999)]);
      // Three batches of 40 (an import embedded in batches): nothing written yet.
      for (const batch of [2, 0, 1]) {
        await cache.put(
          "p",
          "m",
          Array.from({ length: 40 }, (_, i) => entry(batch * 40 + i)),
        );
      }
      expect(written).toHaveLength(0);
      // Found here meanwhile; a store, which carries at most PENDING_MAX, takes none.
      expect(Array.from((await cache.get("p", "m", ["h0042"])).get("h0042") ?? [])).toEqual([42, -14]);
      expect(cache.takePending(PENDING_MAX)).toBeNull();
      await cache.flush();
      expect(written.map((w) => w.rows.length)).toEqual([120]);
      const hashes = written[0]?.rows.map((r) => r.hash) ?? [];
      expect(hashes).toEqual([...hashes].sort());
      expect(hashes[0]).toBe("h0000");
      // A few go by the INSERT, as without the writer.
      await cache.put("p", "m", [entry(500)]);
      await cache.flush();
      expect(written).toHaveLength(1);
      const { rows } = await database().query(`SELECT content_hash FROM ${names.cache} ORDER BY 1`);
      expect(rows.map((r) => r.content_hash)).toEqual(["h0500", "h0999"]);
    });

    it("a put past the hold writes everything waiting, at once", async () => {
      const memory = await openTestMemory(database());
      const names = sqlNames(schemaOf(memory));
      const written: number[] = [];
      const cache = createEmbeddingCache(database() as unknown as Queryable, names, {
        maxEntries: 100_000,
        now: () => new Date(),
        writeMany: async (entries) => {
          written.push(entries.rows.length);
        },
      });
      await cache.put("p", "m", [entry(99_999)]);
      for (let batch = 0; batch < 16; batch++) {
        await cache.put(
          "p",
          "m",
          Array.from({ length: 128 }, (_, i) => entry(batch * 128 + i)),
        );
      }
      // 2,048 wait (the hold); the next put goes over it.
      expect(written).toEqual([]);
      await cache.put("p", "m", [entry(9999)]);
      expect(written).toEqual([2049]);
    });
  });

  describe("an import's vectors in the cache", () => {
    it("reach it by COPY on a real server (PGlite: INSERTs), bit for bit, found by another server", async () => {
      const { pool, sent } = countedPool(database().url);
      const counted = countingProvider(createHashingEmbeddingProvider({ dimensions: 8 }));
      const schema = database().newSchema();
      const settings = { ...DEFAULT_CONFIG.memory, hotCacheSize: 0, deferEmbedding: false };
      const memory = await PostgresMemory.open({ pool, schema, settings, embeddings: counted.provider });
      onTestFinished(async () => {
        await memory.close();
        await endPool(pool);
      });
      const entries = Array.from({ length: 300 }, (_, i) => ({
        key: `k${i}`,
        content: `imported fact number ${i} about tea`,
      }));
      sent.length = 0;
      expect(await memory.import(entries)).toBe(300);
      // Every entry by COPY: before the rows, and when a put evicts (a new cache's first puts do).
      const copies = sent.filter((text) => text.startsWith("COPY pg_temp.claw_cache_staging")).length;
      const inserts = sent.filter((text) =>
        /^INSERT INTO \S+\.claw_embedding_cache .* FROM unnest/.test(text),
      );
      if (database().kind === "server") {
        expect(copies).toBeGreaterThan(0);
        expect(copies).toBeLessThanOrEqual(3);
        expect(inserts).toEqual([]);
      } else {
        expect(copies).toBe(0);
        expect(inserts.length).toBeGreaterThan(0);
      }
      const names = sqlNames(schema);
      const rows = (await database().query(`SELECT content_hash, embedding FROM ${names.cache}`)).rows as {
        content_hash: string;
        embedding: number[];
      }[];
      expect(rows).toHaveLength(300);
      // The cached vector is the row's (as float32: PGlite's went as decimal text).
      const exported = await memory.export({ includeEmbeddings: true });
      const first = exported.find((e) => e.key === "k0");
      expect(first?.embedding).toHaveLength(8);
      const cached = rows.find((r) => r.content_hash === contentHash(entries[0]?.content ?? ""));
      expect(Array.from(Float32Array.from(cached?.embedding ?? []))).toEqual(
        Array.from(first?.embedding ?? []),
      );

      // Another server stores the same text: its vector comes from the cache, not the provider.
      const other = countingProvider(createHashingEmbeddingProvider({ dimensions: 8 }));
      const b = await PostgresMemory.open({
        url: database().url,
        schema,
        settings,
        embeddings: other.provider,
      });
      onTestFinished(() => b.close());
      await b.store("again", "imported fact number 7 about tea");
      expect(other.calls.texts).toBe(0);
    });

    it("two servers writing the same entries by COPY and by INSERT at once never wait on each other for ever", async () => {
      const memory = await openTestMemory(database());
      const names = sqlNames(schemaOf(memory));
      const pools = [0, 1].map(() => new pg.Pool({ connectionString: database().url, max: 3 }));
      try {
        const caches = pools.map((pool, i) =>
          createEmbeddingCache(pool, names, {
            maxEntries: 150,
            now: () => new Date(),
            // PGlite takes no COPY: there both write by INSERT.
            ...(i === 0 && database().kind === "server" ? { writeMany: cacheCopyWriter(pool, names) } : {}),
          }),
        );
        const hashes = (round: number) => Array.from({ length: 90 }, (_, i) => (round * 31 + i) % 300);
        await Promise.all(
          caches.map(async (cache, c) => {
            for (let round = 0; round < 12; round++) {
              await cache.put(
                "p",
                "m",
                hashes(round + c).map((i) => entry(i)),
              );
              await cache.flush();
              await cache.get(
                "p",
                "m",
                hashes(round).map((i) => entry(i)[0]),
              );
            }
          }),
        );
        const { rows } = await database().query(`SELECT count(*)::int AS n FROM ${names.cache}`);
        expect(rows[0]?.n).toBeGreaterThan(0);
        expect(rows[0]?.n).toBeLessThanOrEqual(300);
      } finally {
        await Promise.all(pools.map((pool) => pool.end()));
      }
    });
  });
});
