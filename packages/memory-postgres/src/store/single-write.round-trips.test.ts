// How many statements a single write sends: each is a round trip to the server (13–15 ms a store
// on a loopback server when it was four).
import type { EmbeddingProvider } from "@claw/memory-api";
import { createHashingEmbeddingProvider, DEFAULT_CONFIG } from "@claw/memory-core";
import pg from "pg";
import { describe, expect, it, onTestFinished } from "vitest";
import { PostgresMemory } from "../postgres-memory.js";
import { forEachTestDatabase } from "../test-support/test-database.js";

forEachTestDatabase((database) => {
  /** A store on a pool whose every statement is counted. */
  async function countedStore(embeddings: EmbeddingProvider | null = null, deferEmbedding = true) {
    const pool = new pg.Pool({ connectionString: database().url, max: 2 });
    const sent: string[] = [];
    pool.on("connect", (client) => {
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
        const first = args[0];
        sent.push(typeof first === "string" ? first : String((first as { text?: string }).text));
        return query(...args);
      };
    });
    const memory = await PostgresMemory.open({
      pool,
      schema: database().newSchema(),
      settings: { ...DEFAULT_CONFIG.memory, hotCacheSize: 0, deferEmbedding },
      embeddings,
    });
    onTestFinished(async () => {
      await memory.close();
      await pool.end();
    });
    const during = async (call: () => Promise<unknown>) => {
      sent.length = 0;
      await call();
      return sent.map((text) => text.trim().split(/\s+/)[0]?.toUpperCase());
    };
    return { memory, during };
  }

  describe("round trips of a single write", () => {
    it("a store outside a session is one statement: the upsert moves the change stamp too", async () => {
      const { memory, during } = await countedStore();
      // The first write also reads the table's statistics once (table-analyzer.ts).
      expect(await during(() => memory.store("first", "a first fact"))).toEqual(["WITH", "SELECT"]);
      expect(await during(() => memory.store("k", "a fact"))).toEqual(["WITH"]);
      expect(await during(() => memory.store("k", "the fact, changed"))).toEqual(["WITH"]);
      // A session turn reads its place, then its upsert indexes it with the turn before it and
      // re-indexes the turn after it: 2 statements, no transaction.
      expect(await during(() => memory.store("t1", "a turn", { sessionId: "s" }))).toEqual(["WITH", "WITH"]);
      expect(await during(() => memory.store("t2", "a reply", { sessionId: "s" }))).toEqual(["WITH", "WITH"]);
      expect(await during(() => memory.store("t1", "a turn, changed", { sessionId: "s" }))).toEqual([
        "WITH",
        "WITH",
      ]);
      // A turn moving to another session is written in a transaction, both places refreshed.
      const moved = await during(() => memory.store("t1", "a turn, changed", { sessionId: "s2" }));
      expect(moved).toEqual(["WITH", "BEGIN", "WITH", "WITH", "UPDATE", "WITH", "UPDATE", "COMMIT"]);
      expect((await memory.history("k")).map((v) => v.version)).toEqual([2, 1]);
    });

    it("a store that embeds before returning is 2 statements: the cache lookup and the upsert holding the vector", async () => {
      const { memory, during } = await countedStore(
        createHashingEmbeddingProvider({ dimensions: 16 }),
        false,
      );
      await memory.store("first", "a first fact");
      // The cache lookup, then the upsert holding the vector, which also writes the cache's new
      // entry and moves the change stamp.
      expect(await during(() => memory.store("k", "a fact"))).toEqual(["UPDATE", "WITH"]);
      const [entry] = await memory.export({ includeEmbeddings: true, namespace: "default" });
      expect(entry?.embedding).toHaveLength(16);
      expect((await memory.status()).missingEmbeddings).toBe(0);
    });
  });
});
