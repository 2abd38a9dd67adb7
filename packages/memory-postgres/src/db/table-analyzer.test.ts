// The planner's statistics after bulk changes: ANALYZE runs before the bulk call returns.
import { createHashingEmbeddingProvider } from "@claw/memory-core";
import { describe, expect, it } from "vitest";
import { vectorSearchFor } from "../embedding/vector-index.js";
import { searchVectors } from "../search/vector-search.js";
import { forEachTestDatabase, needsPgvector, pgClient } from "../test-support/test-database.js";
import { openTestMemory, schemaOf } from "../test-support/test-memory.js";
import type { Queryable } from "./pool.js";
import { sqlNames } from "./sql-names.js";

const DIMENSIONS = 16;
const hashing = createHashingEmbeddingProvider({ dimensions: DIMENSIONS });

forEachTestDatabase((database) => {
  // The share of rows without a vector, as the last ANALYZE saw it: embedding_hash is set with the
  // vector (the vectors themselves are not sampled: migration 10).
  const statistics = async (schema: string) => {
    const { rows } = await database().query(
      `SELECT c.reltuples::float8 AS rows,
         (SELECT null_frac::float8 FROM pg_stats
          WHERE schemaname = $1 AND tablename = 'claw_memories' AND attname = 'embedding_hash') AS null_frac
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = $1 AND c.relname = 'claw_memories'`,
      [schema],
    );
    return rows[0] as { rows: number; null_frac: number | null };
  };

  describe("table statistics", () => {
    it("a bulk import is analysed before it returns; a few stores are not", async () => {
      const memory = await openTestMemory(database());
      const schema = schemaOf(memory);
      for (let i = 0; i < 5; i++) await memory.store(`s${i}`, `a single store ${i}`);
      expect((await statistics(schema)).rows).toBeLessThanOrEqual(0);
      await memory.import(Array.from({ length: 1500 }, (_, i) => ({ key: `k${i}`, content: `entry ${i}` })));
      expect(await statistics(schema)).toEqual({ rows: 1505, null_frac: 1 });
    });

    it("a bulk import leaves the rid index's block ranges summarized; autovacuum summarizes those of later writes", async () => {
      const memory = await openTestMemory(database());
      const schema = schemaOf(memory);
      const index = `"${schema}".claw_memories_rid_recent`;
      const { rows: options } = await database().query(
        `SELECT reloptions FROM pg_class WHERE oid = '${index}'::regclass`,
      );
      expect(options[0]?.reloptions).toEqual(["autosummarize=on"]);
      // ~3 MB of rows: block ranges of 128 pages (1 MB) past the first.
      const words = (i: number) =>
        Array.from({ length: 60 }, (_, j) => `w${(i * 61 + j * 7) % 9973}`).join(" ");
      await memory.import(Array.from({ length: 3000 }, (_, i) => ({ key: `k${i}`, content: words(i) })));
      const { rows: pages } = await database().query(
        `SELECT pg_relation_size('"${schema}".claw_memories') / 8192 AS n`,
      );
      expect(Number(pages[0]?.n)).toBeGreaterThan(256);
      // Summarizing again finds no range left: the import's ANALYZE summarized them all.
      const { rows } = await database().query(`SELECT brin_summarize_new_values('${index}'::regclass) AS n`);
      expect(Number(rows[0]?.n)).toBe(0);
    });

    it("a backfill that gives the rows their vectors is analysed, so the planner knows they have one", async () => {
      const plain = await openTestMemory(database());
      const schema = schemaOf(plain);
      await plain.import(Array.from({ length: 1200 }, (_, i) => ({ key: `k${i}`, content: `entry ${i}` })));
      expect((await statistics(schema)).null_frac).toBe(1);
      await plain.close();
      const memory = await openTestMemory(database(), { schema, embeddings: hashing });
      expect(await memory.backfillEmbeddings(200)).toBe(1200);
      expect(await statistics(schema)).toEqual({ rows: 1200, null_frac: 0 });
    });

    it("with pgvector: right after a bulk import and flush(), recall's own vector query plans the HNSW index", async (ctx) => {
      needsPgvector(ctx, database());
      const memory = await openTestMemory(database(), { embeddings: hashing });
      const schema = schemaOf(memory);
      const texts = Array.from({ length: 3000 }, (_, i) => `entry number ${i}`);
      const vectors = await hashing.embed(texts);
      await memory.import(texts.map((content, i) => ({ key: `k${i}`, content, embedding: vectors[i] })));
      // The HNSW index a bulk import sets aside is built again (embedding/bulk-index.ts).
      await memory.flush();
      // The statement recall runs (namespace and superseded filters included), captured and explained.
      const statements: Array<{ sql: string; values?: unknown[] }> = [];
      // Through node-postgres, as the store sends it (the query vector is a binary parameter).
      const client = await pgClient(database().url);
      const capturing = {
        query: (sql: string, values?: unknown[]) => {
          statements.push({ sql, values });
          return client.query(sql, values);
        },
      } as unknown as Queryable;
      const { rows } = await database().query(
        "SELECT n.nspname AS schema, e.extversion AS version FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'vector'",
      );
      const search = vectorSearchFor(
        { schema: rows[0]?.schema, version: rows[0]?.version },
        DIMENSIONS,
      ).search;
      const hits = await searchVectors(capturing, sqlNames(schema), search, vectors[7] as Float32Array, 40, {
        namespace: "default",
      });
      expect(hits[0]?.similarity).toBeCloseTo(1, 5);
      expect(statements).toHaveLength(1);
      const [statement] = statements as [{ sql: string; values?: unknown[] }];
      const plan = await client.query(`EXPLAIN ${statement.sql}`, statement.values);
      expect(plan.rows.map((r) => String(r["QUERY PLAN"])).join("\n")).toContain(
        `Index Scan using claw_memories_hnsw_${DIMENSIONS}`,
      );
    });
  });
});
