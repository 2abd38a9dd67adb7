// Two PostgresMemory instances with their own pools on one database: two servers sharing a store.
import { createHashingEmbeddingProvider } from "@claw/memory-core";
import { countingProvider } from "@claw/memory-core/testkit";
import { describe, expect, it } from "vitest";
import { heldProvider } from "./test-support/held-provider.js";
import { forEachTestDatabase } from "./test-support/test-database.js";
import { openTestMemory, schemaOf } from "./test-support/test-memory.js";

forEachTestDatabase((database) => {
  async function twoServers(options: Parameters<typeof openTestMemory>[1] = {}) {
    const a = await openTestMemory(database(), options);
    const b = await openTestMemory(database(), { ...options, schema: schemaOf(a) });
    return [a, b] as const;
  }

  describe("two servers on one database", () => {
    it("what one writes the other recalls at once, although it had cached an older answer", async () => {
      const [a, b] = await twoServers();
      await a.store("tea", "green tea in the morning");
      expect((await b.recall("tea")).map((e) => e.content)).toEqual(["green tea in the morning"]);
      await a.store("tea", "black tea in the morning");
      expect((await b.recall("tea")).map((e) => e.content)).toEqual(["black tea in the morning"]);
      await a.purgeNamespace("default");
      expect(await b.recall("tea")).toEqual([]);
      expect(await b.recall("")).toEqual([]);
    });

    it("concurrent upserts of one key leave one row holding one of the writes", async () => {
      const [a, b] = await twoServers();
      const writes = Array.from({ length: 40 }, (_, i) =>
        (i % 2 === 0 ? a : b).store("shared", `version ${i}`, { sessionId: `s${i}` }),
      );
      const entries = await Promise.all(writes);
      expect(await a.count()).toBe(1);
      expect(new Set(entries.map((e) => e.id)).size).toBe(1);
      const final = await b.get("shared");
      expect(entries.map((e) => e.content)).toContain(final?.content);
      expect(final?.sessionId).toBe(`s${final?.content.split(" ")[1]}`);
    });

    it("concurrent overwrites of one key from both servers each leave exactly one version", async () => {
      const [a, b] = await twoServers();
      await Promise.all(
        Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? a : b).store("shared", `version ${i}`)),
      );
      const history = await b.history("shared");
      // 30 different contents: 30 versions, numbered 1…30 without a gap or a repeat, each content once.
      expect(history.map((v) => v.version)).toEqual(Array.from({ length: 30 }, (_, i) => 30 - i));
      expect(new Set(history.map((v) => v.content)).size).toBe(30);
      expect(history.filter((v) => v.current).map((v) => v.content)).toEqual([
        (await a.get("shared"))?.content,
      ]);
      expect(history.at(-1)?.action).toBe("create");
      expect(history.slice(0, -1).every((v) => v.action === "update")).toBe(true);
    });

    it("stores that embed first, from both at once, over shared keys and texts, all land with their vectors", async () => {
      // Each upsert also writes its server's new embedding cache entries: the rows the two servers
      // lock overlap (keys and cache entries), and none may wait on the other for ever.
      const embeddings = createHashingEmbeddingProvider({ dimensions: 16 });
      const [a, b] = await twoServers({ embeddings, settings: { deferEmbedding: false } });
      const stored = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          (i % 2 === 0 ? a : b).store(`k${i % 7}`, `a note about topic ${i % 5}`),
        ),
      );
      expect(stored).toHaveLength(60);
      expect(await a.count()).toBe(7);
      expect((await b.status()).missingEmbeddings).toBe(0);
      const cached = await database().query(
        `SELECT count(*)::int AS n FROM "${schemaOf(a)}".claw_embedding_cache`,
      );
      await Promise.all([a.flush(), b.flush()]);
      const flushed = await database().query(
        `SELECT count(*)::int AS n FROM "${schemaOf(a)}".claw_embedding_cache`,
      );
      expect(flushed.rows[0]?.n).toBe(5);
      expect(cached.rows[0]?.n).toBeLessThanOrEqual(5);
    });

    it("loses no write: 200 keys stored and imported from both at once are all there", async () => {
      const [a, b] = await twoServers();
      await Promise.all([
        ...Array.from({ length: 50 }, (_, i) => a.store(`a${i}`, `from a ${i}`)),
        ...Array.from({ length: 50 }, (_, i) => b.store(`b${i}`, `from b ${i}`)),
        a.import(Array.from({ length: 50 }, (_, i) => ({ key: `ia${i}`, content: `imported by a ${i}` }))),
        b.import(Array.from({ length: 50 }, (_, i) => ({ key: `ib${i}`, content: `imported by b ${i}` }))),
      ]);
      expect(await a.count()).toBe(200);
      expect(await b.count()).toBe(200);
      expect((await b.recall("imported", { limit: 1000 })).length).toBe(100);
    });

    it("concurrent imports of the same keys end with one row per key", async () => {
      const [a, b] = await twoServers();
      const batch = (tag: string) =>
        Array.from({ length: 120 }, (_, i) => ({ key: `k${i}`, content: `${tag} ${i}` }));
      await Promise.all([a.import(batch("a")), b.import(batch("b")), a.import(batch("c"))]);
      expect(await a.count()).toBe(120);
      const exported = await b.export();
      expect(new Set(exported.map((e) => e.key)).size).toBe(120);
    });

    it("a row is embedded by one server only: the other's backfill skips what is claimed", async () => {
      const held = heldProvider(createHashingEmbeddingProvider({ dimensions: 16 }));
      const other = countingProvider(createHashingEmbeddingProvider({ dimensions: 16 }));
      const a = await openTestMemory(database(), { embeddings: held.provider });
      const b = await openTestMemory(database(), { embeddings: other.provider, schema: schemaOf(a) });
      await a.import(Array.from({ length: 20 }, (_, i) => ({ key: `k${i}`, content: `entry ${i}` })));
      await held.started; // a's deferred batch has claimed the rows and waits for its provider
      expect(await b.backfillEmbeddings()).toBe(0);
      expect(other.calls.texts).toBe(0);
      held.release();
      await a.flush();
      expect(held.calls.documents).toBe(20);
      expect((await b.status()).missingEmbeddings).toBe(0);
      expect((await b.recall("entry 7", { mode: "embedding", limit: 1 }))[0]?.key).toBe("k7");
    });

    it("rows claimed by a server that died are taken over once its lease runs out", async () => {
      const embeddings = createHashingEmbeddingProvider({ dimensions: 16 });
      const [a, b] = await twoServers({ embeddings });
      await a.close();
      const schema = schemaOf(a);
      await b.import([{ key: "orphan", content: "claimed by a dead server" }], {});
      await b.flush();
      // Simulate a claim a dead server left: no vector, a lease still running, then one run out.
      await database().query(
        `UPDATE "${schema}".claw_memories SET embedding = NULL, embed_claimed_until = now() + interval '1 hour'`,
      );
      expect(await b.backfillEmbeddings()).toBe(0);
      await database().query(
        `UPDATE "${schema}".claw_memories SET embed_claimed_until = now() - interval '1 second'`,
      );
      expect(await b.backfillEmbeddings()).toBe(1);
      expect((await b.status()).missingEmbeddings).toBe(0);
    });
  });
});
