// A bulk import into a small table writes without the HNSW index, which is built again afterwards:
// by flush(), close(), or a few seconds without a bulk write.
import { silentLogger } from "@claw/memory-api";
import { createHashingEmbeddingProvider } from "@claw/memory-core";
import pg from "pg";
import { describe, expect, it, onTestFinished } from "vitest";
import { sqlNames } from "../db/sql-names.js";
import { forEachTestDatabase, needsPgvector } from "../test-support/test-database.js";
import { openTestMemory, schemaOf } from "../test-support/test-memory.js";
import { BULK_WARNING, createBulkIndex } from "./bulk-index.js";
import { createIndexBuilds } from "./index-builds.js";
import { DEFAULT_BUILD_MEMORY_MAX_MB, loadPgvector, vectorSearchFor } from "./vector-index.js";

const embeddings = createHashingEmbeddingProvider({ dimensions: 16 });
const notes = (count: number, from = 0) =>
  Array.from({ length: count }, (_, i) => ({
    key: `note-${from + i}`,
    content: `note ${from + i} about ${["tea", "bread", "rain", "maps"][i % 4]} number ${from + i}`,
  }));

forEachTestDatabase((database) => {
  /** The store's HNSW indexes and whether each is valid. */
  async function indexes(schema: string): Promise<Array<[string, boolean]>> {
    const { rows } = await database().query(
      `SELECT c.relname AS name, i.indisvalid AS valid
       FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = $1 AND c.relname LIKE 'claw_memories_hnsw_%'`,
      [schema],
    );
    return rows.map((r) => [r.name as string, r.valid as boolean]);
  }

  describe("the HNSW index during a bulk import", () => {
    it("is set aside by an import of 500 or more into an empty store, and built again by flush()", async (ctx) => {
      needsPgvector(ctx, database());
      const memory = await openTestMemory(database(), { embeddings, settings: { deferEmbedding: false } });
      const schema = schemaOf(memory);
      expect(await indexes(schema)).toEqual([["claw_memories_hnsw_16", true]]);
      await memory.import(notes(600));
      expect(await indexes(schema)).toEqual([]);
      expect((await memory.status()).warnings).toContain(BULK_WARNING);
      // Vector recall scans exactly meanwhile: the same entry comes first.
      const [during] = await memory.recall("note 17 about bread number 17", { mode: "hybrid", limit: 1 });
      expect(during?.key).toBe("note-17");
      await memory.import(notes(600, 600));
      await memory.flush();
      expect(await indexes(schema)).toEqual([["claw_memories_hnsw_16", true]]);
      expect((await memory.status()).warnings ?? []).not.toContain(BULK_WARNING);
      const [after] = await memory.recall("note 1017 about bread number 1017", { mode: "hybrid", limit: 1 });
      expect(after?.key).toBe("note-1017");
      expect((await memory.status()).missingEmbeddings).toBe(0);
    });

    it("stays for small imports, and for a bulk import into a table four times its size or more", async (ctx) => {
      needsPgvector(ctx, database());
      const memory = await openTestMemory(database(), { embeddings });
      const schema = schemaOf(memory);
      await memory.import(notes(499));
      expect(await indexes(schema)).toEqual([["claw_memories_hnsw_16", true]]);
      // 499 + 2,000 rows analysed (the analyzer runs ANALYZE after bulk writes), then 600 more.
      await memory.import(notes(2_000, 499));
      await memory.flush();
      expect(await indexes(schema)).toEqual([["claw_memories_hnsw_16", true]]);
      await memory.import(notes(600, 2_499));
      expect(await indexes(schema)).toEqual([["claw_memories_hnsw_16", true]]);
    });

    it("is built again by close(), and by the next open when a process left it out or invalid", async (ctx) => {
      needsPgvector(ctx, database());
      const memory = await openTestMemory(database(), { embeddings });
      const schema = schemaOf(memory);
      await memory.import(notes(600));
      expect(await indexes(schema)).toEqual([]);
      await memory.close();
      expect(await indexes(schema)).toEqual([["claw_memories_hnsw_16", true]]);
      // As a process killed during the bulk import leaves it: no index.
      await database().query(`DROP INDEX "${schema}".claw_memories_hnsw_16`);
      const again = await openTestMemory(database(), { embeddings, schema });
      expect(await indexes(schema)).toEqual([["claw_memories_hnsw_16", true]]);
      await again.close();
      // Killed during the concurrent build: an invalid index.
      await database().query(
        `UPDATE pg_index SET indisvalid = false WHERE indexrelid = '"${schema}".claw_memories_hnsw_16'::regclass`,
      );
      expect(await indexes(schema)).toEqual([["claw_memories_hnsw_16", false]]);
      await openTestMemory(database(), { embeddings, schema });
      expect(await indexes(schema)).toEqual([["claw_memories_hnsw_16", true]]);
    });

    it("is built again once no bulk write came for a while", async (ctx) => {
      needsPgvector(ctx, database());
      const memory = await openTestMemory(database(), { embeddings });
      const names = sqlNames(schemaOf(memory));
      const pool = new pg.Pool({ connectionString: database().url, max: 2 });
      onTestFinished(() => pool.end());
      const search = vectorSearchFor(await loadPgvector(pool), 16).search;
      let built: () => void = () => {};
      const rebuilt = new Promise<void>((resolve) => {
        built = resolve;
      });
      const warnings: string[] = [];
      const logger = {
        ...silentLogger,
        debug: (message: string) => message.includes("built again") && built(),
      };
      const bulk = createBulkIndex({
        pool,
        db: pool,
        names,
        search,
        warnings,
        indexBuilds: createIndexBuilds({ names, maxMemoryMb: DEFAULT_BUILD_MEMORY_MAX_MB, warnings, logger }),
        logger,
        idleMs: 20,
      });
      await bulk.beforeWrite(600);
      expect(warnings).toEqual([BULK_WARNING]);
      bulk.afterWrite();
      await rebuilt;
      expect(await indexes(schemaOf(memory))).toEqual([["claw_memories_hnsw_16", true]]);
      expect(warnings).toEqual([]);
      await bulk.close();
    });
  });
});
