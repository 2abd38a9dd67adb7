// New embedding cache entries ride on the next single-statement write (the store their vectors were
// computed for, or a background batch's vector write), and flush() writes what is left.
import { createHashingEmbeddingProvider } from "@claw/memory-core";
import { countingProvider } from "@claw/memory-core/testkit";
import { describe, expect, it } from "vitest";
import type { Queryable } from "../db/pool.js";
import { sqlNames } from "../db/sql-names.js";
import { forEachTestDatabase } from "../test-support/test-database.js";
import { openTestMemory, schemaOf } from "../test-support/test-memory.js";
import { createEmbeddingCache } from "./embedding-cache.js";

forEachTestDatabase((database) => {
  /** A database handle whose statements are counted. */
  function countedDb() {
    const sent: string[] = [];
    const db = {
      query: (text: string, values?: unknown[]) => {
        sent.push(text.trim().split(/\s+/)[0]?.toUpperCase() ?? "");
        return database().query(text, values);
      },
    } as unknown as Queryable;
    return { db, sent };
  }

  describe("embedding cache entries waiting for a statement", () => {
    it("a store that embeds first writes its cache entry with its row: another server finds it there", async () => {
      const counted = countingProvider(createHashingEmbeddingProvider({ dimensions: 16 }));
      const settings = { deferEmbedding: false, hotCacheSize: 0 };
      const a = await openTestMemory(database(), { embeddings: counted.provider, settings });
      const names = sqlNames(schemaOf(a));
      const cached = async () =>
        Number((await database().query(`SELECT count(*)::int AS n FROM ${names.cache}`)).rows[0]?.n);
      await a.store("first", "a first fact");
      const before = await cached();
      await a.store("tea", "green tea in the morning");
      // Written by the upsert: no flush, no statement of its own.
      expect(await cached()).toBe(before + 1);
      const b = await openTestMemory(database(), {
        schema: schemaOf(a),
        embeddings: counted.provider,
        settings,
      });
      const sent = counted.calls.texts;
      await b.store("tea-again", "green tea in the morning");
      expect(counted.calls.texts).toBe(sent);
      const [entry] = await b
        .export({ includeEmbeddings: true, namespace: "default" })
        .then((all) => all.filter((e) => e.key === "tea-again"));
      expect(entry?.embedding).toHaveLength(16);
    });

    it("waiting entries are found here without a statement, and written by flush() or a put past the limit", async () => {
      const memory = await openTestMemory(database());
      const names = sqlNames(schemaOf(memory));
      const { db, sent } = countedDb();
      const cache = createEmbeddingCache(db, names, { maxEntries: 1000, now: () => new Date() });
      const stored = async () =>
        (await database().query(`SELECT content_hash FROM ${names.cache} ORDER BY content_hash`)).rows.map(
          (r) => r.content_hash,
        );
      // The first put evicts (and so writes); the next ones wait.
      await cache.put("p", "m", [["h0", Float32Array.of(0, 1)]]);
      expect(await stored()).toEqual(["h0"]);
      sent.length = 0;
      await cache.put("p", "m", [["h1", Float32Array.of(1, 2)]]);
      expect(sent).toEqual([]);
      expect(Array.from((await cache.get("p", "m", ["h1"])).get("h1") ?? [])).toEqual([1, 2]);
      expect(sent).toEqual([]);
      // A lookup of another hash reads the table only.
      const hits = await cache.get("p", "m", ["h0", "h1"]);
      expect(sent).toEqual(["UPDATE"]);
      expect([...hits.keys()].sort()).toEqual(["h0", "h1"]);
      expect(await stored()).toEqual(["h0"]);
      await cache.flush();
      expect(await stored()).toEqual(["h0", "h1"]);
      // Nothing is left to write.
      sent.length = 0;
      await cache.flush();
      expect(sent).toEqual([]);
      // More than 16 waiting: all written at once.
      await cache.put(
        "p",
        "m",
        Array.from({ length: 17 }, (_, i) => [`w${String(i).padStart(2, "0")}`, Float32Array.of(i)] as const),
      );
      expect(sent).toEqual(["INSERT"]);
      expect(await stored()).toHaveLength(19);
    });

    it("a failed write gives its entries back to wait for the next statement", async () => {
      const memory = await openTestMemory(database());
      const names = sqlNames(schemaOf(memory));
      const cache = createEmbeddingCache(database() as unknown as Queryable, names, {
        maxEntries: 1000,
        now: () => new Date(),
      });
      await cache.put("p", "m", [["h0", Float32Array.of(0)]]);
      await cache.put("p", "m", [
        ["h2", Float32Array.of(2)],
        ["h1", Float32Array.of(1)],
      ]);
      // Taken in key order: the order the INSERT locks existing rows in.
      const taken = cache.takePending();
      expect(taken?.rows.map((r) => r.hash)).toEqual(["h1", "h2"]);
      expect(cache.takePending()).toBeNull();
      if (taken !== null) cache.restore(taken);
      await cache.flush();
      const { rows } = await database().query(
        `SELECT content_hash FROM ${names.cache} ORDER BY content_hash`,
      );
      expect(rows.map((r) => r.content_hash)).toEqual(["h0", "h1", "h2"]);
    });
  });
});
