// ANALYZE leaves the vectors out: no plan reads statistics of them, and sampling them was most of
// an ANALYZE's time at the widths providers use (migration 10, vector-index.ts).
import { createHashingEmbeddingProvider } from "@claw/memory-core";
import { describe, expect, it } from "vitest";
import { forEachTestDatabase, needsPgvector } from "../test-support/test-database.js";
import { openTestMemory, schemaOf } from "../test-support/test-memory.js";

const hashing = createHashingEmbeddingProvider({ dimensions: 16 });

const entries = Array.from({ length: 60 }, (_, i) => ({
  key: `k${i}`,
  content: `note ${i} about the ${i % 2 === 0 ? "garden" : "kitchen"}`,
  namespace: i % 3 === 0 ? "work" : "home",
}));

forEachTestDatabase((database) => {
  /** The columns ANALYZE kept statistics of, as "relation.column", in this schema. */
  async function sampledColumns(schema: string): Promise<string[]> {
    const { rows } = await database().query(
      `SELECT c.relname || '.' || a.attname AS name
       FROM pg_statistic s JOIN pg_class c ON c.oid = s.starelid
         JOIN pg_namespace n ON n.oid = c.relnamespace
         JOIN pg_attribute a ON a.attrelid = s.starelid AND a.attnum = s.staattnum
       WHERE n.nspname = $1 ORDER BY 1`,
      [schema],
    );
    return rows.map((r) => r.name as string);
  }

  async function analyze(schema: string): Promise<void> {
    await database().query(`ANALYZE "${schema}".claw_memories`);
    await database().query(`ANALYZE "${schema}".claw_embedding_cache`);
  }

  describe("planner statistics of the vectors", () => {
    it("ANALYZE samples the table's and the cache's other columns, not the vectors nor the HNSW index's expression", async (ctx) => {
      needsPgvector(ctx, database());
      const memory = await openTestMemory(database(), { embeddings: hashing });
      const schema = schemaOf(memory);
      await memory.import(entries);
      await memory.flush();
      await analyze(schema);
      const sampled = await sampledColumns(schema);
      expect(sampled).toContain("claw_memories.namespace");
      expect(sampled).toContain("claw_memories.fts");
      expect(sampled).toContain("claw_embedding_cache.content_hash");
      expect(sampled.filter((name) => name.endsWith(".embedding"))).toEqual([]);
      expect(sampled.filter((name) => name.startsWith("claw_memories_hnsw_"))).toEqual([]);
    });

    it("an HNSW index built by an earlier release stops being sampled once a store opens it", async (ctx) => {
      needsPgvector(ctx, database());
      const first = await openTestMemory(database(), { embeddings: hashing });
      const schema = schemaOf(first);
      await first.import(entries);
      await first.close();
      const target = async () =>
        (
          await database().query(
            `SELECT coalesce(attstattarget::int, -1) AS n FROM pg_attribute
             WHERE attrelid = '"${schema}".claw_memories_hnsw_16'::regclass AND attnum = 1`,
          )
        ).rows[0]?.n;
      expect(await target()).toBe(0);
      // As an earlier release left it: the expression sampled at the default target.
      await database().query(
        `ALTER INDEX "${schema}".claw_memories_hnsw_16 ALTER COLUMN 1 SET STATISTICS -1`,
      );
      await analyze(schema);
      expect(await sampledColumns(schema)).toContain("claw_memories_hnsw_16.embedding");
      expect(await target()).toBe(-1);
      await openTestMemory(database(), { embeddings: hashing, schema });
      expect(await target()).toBe(0);
    });
  });
});
