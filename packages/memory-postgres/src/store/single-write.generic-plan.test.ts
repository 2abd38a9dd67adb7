// A single store()'s statements keep their generic plan once PostgreSQL has planned them five times
// (db/param-rows.ts): one row goes as scalars, not as arrays unnest() would cost at 100 rows.
import { createHashingEmbeddingProvider, DEFAULT_CONFIG } from "@claw/memory-core";
import pg from "pg";
import { describe, expect, it, onTestFinished } from "vitest";
import { endPool } from "../db/pool.js";
import { PostgresMemory } from "../postgres-memory.js";
import { forEachTestDatabase } from "../test-support/test-database.js";

/** Statements prepared on the pool's one connection: the start of their text and how each was planned. */
async function plans(pool: pg.Pool) {
  const { rows } = await pool.query<{ text: string; generic: number; custom: number }>(
    `SELECT regexp_replace(statement, '\\s+', ' ', 'g') AS text, generic_plans::int AS generic, custom_plans::int AS custom
     FROM pg_prepared_statements`,
  );
  return rows;
}

forEachTestDatabase((database) => {
  async function openOn(deferEmbedding: boolean) {
    // One connection: every statement of the store and of its worker is prepared on it.
    const pool = new pg.Pool({ connectionString: database().url, max: 1 });
    const memory = await PostgresMemory.open({
      pool,
      schema: database().newSchema(),
      settings: { ...DEFAULT_CONFIG.memory, hotCacheSize: 0, deferEmbedding },
      embeddings: createHashingEmbeddingProvider({ dimensions: 8 }),
    });
    onTestFinished(async () => {
      await memory.close();
      await endPool(pool);
    });
    return { memory, pool };
  }

  describe("single writes on a prepared statement", () => {
    it("a store() that embeds first: the cache lookup and the upsert of one entry run on generic plans", async () => {
      const { memory, pool } = await openOn(false);
      for (let i = 0; i < 8; i++) await memory.store(`k${i}`, `a fact number ${i}`);
      const prepared = await plans(pool);
      const upsert = prepared.filter((p) => /^WITH old AS \( SELECT o\.rid/.test(p.text));
      const lookup = prepared.filter((p) => /^UPDATE \S+\.claw_embedding_cache SET accessed_at/.test(p.text));
      for (const statements of [upsert, lookup]) {
        expect(statements.length).toBeGreaterThan(0);
        expect(statements.reduce((n, p) => n + p.generic, 0)).toBeGreaterThan(0);
      }
      expect((await memory.status()).missingEmbeddings).toBe(0);
    });

    it("an import of many rows reads them by unnest, and they arrive", async () => {
      const { memory } = await openOn(false);
      const entries = Array.from({ length: 12 }, (_, i) => ({ key: `i${i}`, content: `imported ${i}` }));
      expect(await memory.import(entries)).toBe(12);
      await memory.store("one", "and one more");
      const keys = (await memory.export()).map((e) => e.key).sort();
      expect(keys).toEqual([...entries.map((e) => e.key), "one"].sort());
    });
  });
});
