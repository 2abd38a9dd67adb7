// With deferred embedding, the write that leaves a row without a vector also claims it for this
// process's worker: the worker embeds it without an UPDATE to claim it, other servers' sweeps and
// backfills leave it alone, and a close with its job never run gives the claim up.

import { createHashingEmbeddingProvider, DEFAULT_CONFIG } from "@claw/memory-core";
import { countingProvider } from "@claw/memory-core/testkit";
import { describe, expect, it, onTestFinished } from "vitest";
import { PostgresMemory } from "../postgres-memory.js";
import { countedPool } from "../test-support/counted-pool.js";
import { heldProvider } from "../test-support/held-provider.js";
import { forEachTestDatabase } from "../test-support/test-database.js";
import { openTestMemory, schemaOf } from "../test-support/test-memory.js";
import { createPreClaims } from "./pre-claims.js";

const job = (rid: number, content = `content ${rid}`) => ({ rid, namespace: "ns", hash: `h${rid}`, content });

describe("pre-claimed rows", () => {
  it("are taken once, the newest write of a row winning; the rest of a claim is left to the database", () => {
    const claims = createPreClaims();
    claims.add([job(1), job(2, "old"), job(3)]);
    claims.add([job(2, "new")]);
    expect(claims.take([2, 4, 1])).toEqual([job(2, "new"), job(1)]);
    expect(claims.take([1, 2])).toEqual([]);
    expect(claims.takeAll()).toEqual([job(3)]);
    expect(claims.takeAll()).toEqual([]);
  });

  it("forget the oldest past their bound", () => {
    const claims = createPreClaims(2);
    claims.add([job(1), job(2)]);
    claims.add([job(3)]);
    expect(claims.takeAll().map((j) => j.rid)).toEqual([2, 3]);
  });
});

forEachTestDatabase((database) => {
  /** A deferred-embedding store on a pool whose statements are kept. */
  async function countedMemory() {
    const { pool, sent } = countedPool(database().url);
    const schema = database().newSchema();
    const memory = await PostgresMemory.open({
      pool,
      schema,
      settings: { ...DEFAULT_CONFIG.memory, hotCacheSize: 0 },
      embeddings: createHashingEmbeddingProvider({ dimensions: 16 }),
    });
    onTestFinished(async () => {
      await memory.close();
      await pool.end();
    });
    return { memory, sent, schema };
  }
  const claimUpdates = (sent: readonly string[]) =>
    sent.filter((s) => /SET embed_claimed_until = now\(\)/.test(s));

  describe("rows claimed by the write that left them without a vector", () => {
    it("are embedded by this process's worker without a statement to claim them", async () => {
      const { memory, sent, schema } = await countedMemory();
      await memory.store("one", "a single deferred store");
      await memory.import(
        Array.from({ length: 30 }, (_, i) => ({ key: `k${i}`, content: `imported entry ${i}` })),
      );
      await memory.store("one", "the same key, new content");
      await memory.flush();
      expect(claimUpdates(sent)).toEqual([]);
      expect((await memory.status()).missingEmbeddings).toBe(0);
      const [top] = await memory.recall("the same key, new content", { mode: "embedding", limit: 1 });
      expect(top?.key).toBe("one");
      const claimed = await database().query(
        `SELECT count(*)::int AS n FROM "${schema}".claw_memories WHERE embed_claimed_until IS NOT NULL`,
      );
      expect(claimed.rows[0]?.n).toBe(0);
    });

    it("are left alone by another server's backfill while their job waits, and given up at close", async () => {
      const held = heldProvider(createHashingEmbeddingProvider({ dimensions: 16 }));
      const other = countingProvider(createHashingEmbeddingProvider({ dimensions: 16 }));
      const a = await openTestMemory(database(), {
        embeddings: held.provider,
        settings: { closeTimeoutMs: 0 },
      });
      const b = await openTestMemory(database(), { embeddings: other.provider, schema: schemaOf(a) });
      await a.store("first", "embedded first, held");
      await held.started;
      // Claimed by its write; its job waits behind the held one.
      await a.store("second", "waits for the first");
      expect(await b.backfillEmbeddings()).toBe(0);
      expect(other.calls.texts).toBe(0);
      await a.close();
      held.release();
      // Both claims were given up at close: the other server embeds both at once.
      expect(await b.backfillEmbeddings()).toBe(2);
      expect((await b.status()).missingEmbeddings).toBe(0);
    });
  });
});
