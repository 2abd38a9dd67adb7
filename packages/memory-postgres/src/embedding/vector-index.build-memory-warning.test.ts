// An HNSW build whose graph does not fit in the memory it may take (indexBuildMemoryMb, the role's
// maintenance_work_mem) goes on on disk, several times slower: status() and one warning say so,
// and pgvector's own notice agrees.
import { silentLogger } from "@claw/memory-api";
import { createHashingEmbeddingProvider, DEFAULT_CONFIG } from "@claw/memory-core";
import pg from "pg";
import { describe, expect, it, onTestFinished } from "vitest";
import { PostgresMemory } from "../postgres-memory.js";
import { forEachTestDatabase, needsPgvector, type TestDatabase } from "../test-support/test-database.js";

const embeddings = createHashingEmbeddingProvider({ dimensions: 64 });
const notes = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    key: `note-${i}`,
    content: `note ${i} about ${["tea", "bread", "rain", "maps"][i % 4]} number ${i}`,
  }));

/** A store on a pool whose sessions start with maintenance_work_mem = 1 MB, and what reached its logger and sessions. */
async function openStore(database: TestDatabase, indexBuildMemoryMb?: number) {
  const pool = new pg.Pool({ connectionString: database.url, max: database.poolMax });
  const notices: string[] = [];
  pool.on("connect", (client) => {
    client.on("notice", (notice) => notices.push(notice.message ?? ""));
    // Queued before the pool hands the client out: it runs before the store's first statement.
    client.query("SET maintenance_work_mem = '1MB'").catch(() => {});
  });
  onTestFinished(() => pool.end());
  const warned: string[] = [];
  const memory = await PostgresMemory.open({
    pool,
    schema: database.newSchema(),
    settings: { ...DEFAULT_CONFIG.memory, deferEmbedding: false },
    embeddings,
    logger: { ...silentLogger, warn: (message: string) => warned.push(message) },
    ...(indexBuildMemoryMb === undefined ? {} : { indexBuildMemoryMb }),
  });
  onTestFinished(() => memory.close());
  return { memory, notices, warned };
}

const spilled = (lines: readonly string[]) => lines.filter((line) => line.includes("needed ~"));

forEachTestDatabase((database) => {
  describe("an HNSW build larger than its memory", () => {
    it("is named in status() and one warning when the graph did not fit, as pgvector's notice says", async (ctx) => {
      needsPgvector(ctx, database());
      const { memory, notices, warned } = await openStore(database(), 1);
      // 3,000 × (256 + 768) bytes ≈ 3 MB of graph, 1 MB to build it in: the import sets the index
      // aside and flush() builds it again.
      await memory.import(notes(3_000));
      await memory.flush();
      const warnings = spilled((await memory.status()).warnings ?? []);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/needed ~3 MB for 3\d{3} rows and had 1 MB/);
      expect(spilled(warned)).toEqual(warnings);
      if (database().kind === "server") {
        expect(notices.filter((n) => n.startsWith("hnsw graph no longer fits"))).toHaveLength(1);
      }
      // The index was built all the same: the nearest entry comes first.
      const [hit] = await memory.recall("note 1234 about bread number 1234", { mode: "embedding", limit: 1 });
      expect(hit?.key).toBe("note-1234");
    });

    it("says nothing when the graph fit: the default 1 GB, whatever the session's own setting", async (ctx) => {
      needsPgvector(ctx, database());
      const { memory, notices, warned } = await openStore(database());
      await memory.import(notes(3_000));
      await memory.flush();
      expect(spilled((await memory.status()).warnings ?? [])).toEqual([]);
      expect(spilled(warned)).toEqual([]);
      expect(notices.filter((n) => n.startsWith("hnsw graph no longer fits"))).toEqual([]);
    });
  });

  describe("indexBuildMemoryMb", () => {
    it("must be a positive whole number", async () => {
      for (const bad of [0, -1, 1.5, "64"]) {
        await expect(
          PostgresMemory.open({ url: database().url, indexBuildMemoryMb: bad as number }),
        ).rejects.toMatchObject({ code: "INVALID_INPUT", field: "indexBuildMemoryMb" });
      }
    });
  });
});
