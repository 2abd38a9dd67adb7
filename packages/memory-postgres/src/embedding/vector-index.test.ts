import { createHashingEmbeddingProvider } from "@claw/memory-core";
import { capturingLogger } from "@claw/memory-core/testkit";
import { describe, expect, it, onTestFinished } from "vitest";
import { heldProvider } from "../test-support/held-provider.js";
import { forEachTestDatabase, needsPgvector } from "../test-support/test-database.js";
import { openTestMemory, schemaOf } from "../test-support/test-memory.js";

const hashing = (dimensions: number) => createHashingEmbeddingProvider({ dimensions });

forEachTestDatabase((database) => {
  async function hnswIndexes(schema: string): Promise<string[]> {
    const { rows } = await database().query(
      "SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND indexname LIKE 'claw_memories_hnsw_%' ORDER BY 1",
      [schema],
    );
    return rows.map((r) => r.indexname as string);
  }

  /** The plan of a nearest-neighbour query on `type(dimensions)` with sequential scans discouraged. */
  async function nearestPlan(
    schema: string,
    type: "vector" | "halfvec",
    dimensions: number,
  ): Promise<string> {
    const query = `[${Array.from({ length: dimensions }, (_, i) => (i === 0 ? 1 : 0)).join(",")}]`;
    const plan = await database().script(
      `BEGIN; SET LOCAL enable_seqscan = off;
       EXPLAIN SELECT m.rid FROM "${schema}".claw_memories m WHERE array_length(m.embedding, 1) = ${dimensions}
         ORDER BY (m.embedding::${type}(${dimensions}) <=> '${query}'::${type}(${dimensions})) LIMIT 5;`,
    );
    await database().script("COMMIT");
    return plan.map((r) => String(r["QUERY PLAN"])).join("\n");
  }

  describe("vector search", () => {
    it("with pgvector: an HNSW index for the provider's dimensions, replaced when they change", async (ctx) => {
      needsPgvector(ctx, database());
      const first = await openTestMemory(database(), { embeddings: hashing(16) });
      const schema = schemaOf(first);
      expect(await hnswIndexes(schema)).toEqual(["claw_memories_hnsw_16"]);
      expect((await first.status()).vector).toBe("pgvector");
      await first.close();
      await openTestMemory(database(), { embeddings: hashing(24), schema });
      expect(await hnswIndexes(schema)).toEqual(["claw_memories_hnsw_24"]);
    });

    it("with pgvector: the nearest-neighbour query can use the index", async (ctx) => {
      needsPgvector(ctx, database());
      const memory = await openTestMemory(database(), { embeddings: hashing(16) });
      const schema = schemaOf(memory);
      expect(await nearestPlan(schema, "vector", 16)).toContain("Index Scan using claw_memories_hnsw_16");
    });

    it("with pgvector ≥ 0.7: 3,072 dimensions get a halfvec HNSW index, used by vector recall", async (ctx) => {
      needsPgvector(ctx, database());
      const memory = await openTestMemory(database(), { embeddings: hashing(3072) });
      const schema = schemaOf(memory);
      expect(await hnswIndexes(schema)).toEqual(["claw_memories_hnsw_half_3072"]);
      await memory.import([
        { key: "tomatoes", content: "tomatoes against the south wall" },
        { key: "bikes", content: "the bike shed needs a new lock" },
        { key: "tea", content: "green tea in the morning" },
      ]);
      await memory.flush();
      const status = await memory.status();
      expect([status.vector, status.missingEmbeddings, status.warnings]).toEqual(["pgvector", 0, undefined]);
      expect((await memory.recall("south wall tomatoes", { mode: "embedding", limit: 1 }))[0]?.key).toBe(
        "tomatoes",
      );
      expect(await nearestPlan(schema, "halfvec", 3072)).toContain(
        "Index Scan using claw_memories_hnsw_half_3072",
      );
    });

    it("with pgvector: past 4,000 dimensions, recall scans exactly and status says so once", async (ctx) => {
      needsPgvector(ctx, database());
      const memory = await openTestMemory(database(), { embeddings: hashing(4096) });
      expect(await hnswIndexes(schemaOf(memory))).toEqual([]);
      await memory.import([
        { key: "tomatoes", content: "tomatoes against the south wall" },
        { key: "tea", content: "green tea in the morning" },
      ]);
      await memory.flush();
      const status = await memory.status();
      expect(status.vector).toBe("pgvector");
      expect(status.warnings).toEqual([
        "no HNSW index for 4096-dimensional vectors: pgvector indexes at most 4000 dimensions (as halfvec), so vector recall scans every vector exactly",
      ]);
      expect((await memory.recall("green tea", { mode: "embedding", limit: 1 }))[0]?.key).toBe("tea");
    });

    it("without pgvector: vectors are compared in JavaScript and status says why", async () => {
      // A database of its own where pgvector cannot be created, on PGlite and on a server alike.
      const bare = await database().withoutPgvector();
      onTestFinished(() => bare.close()); // after the memory's close (hooks run last-in, first-out)
      const memory = await openTestMemory(database(), { url: bare.url, embeddings: hashing(16) });
      await memory.store("a", "tomatoes against the south wall");
      await memory.flush();
      const status = await memory.status();
      expect(status.vector).toBe("js");
      // The server's reason in the brackets: PGlite has no such extension, the server refuses the role.
      expect(status.warnings).toEqual([
        expect.stringMatching(
          /^pgvector is not installed \(.+\): vectors are compared in JavaScript, which scans every vector; run CREATE EXTENSION vector as a superuser$/,
        ),
      ]);
      expect((await memory.recall("tomatoes wall", { mode: "embedding" }))[0]?.key).toBe("a");
    });

    it("keyword-only stores never need pgvector", async () => {
      const memory = await openTestMemory(database());
      expect((await memory.status()).vector).toBe("none");
      expect(await hnswIndexes(schemaOf(memory))).toEqual([]);
    });
  });

  describe("close with embeddings in flight", () => {
    it("gives up after close_timeout_ms, warns, and frees the claimed rows for the next server", async () => {
      const held = heldProvider(hashing(16));
      const logger = capturingLogger();
      const first = await openTestMemory(database(), {
        embeddings: held.provider,
        logger,
        settings: { closeTimeoutMs: 20 },
      });
      await first.store("k", "waiting for a vector");
      await held.started;
      await first.close();
      expect(logger.warnings).toEqual([
        "closing with embeddings still pending; backfill will embed them later",
      ]);

      const next = await openTestMemory(database(), { embeddings: hashing(16), schema: schemaOf(first) });
      expect((await next.status()).missingEmbeddings).toBe(1);
      expect(await next.backfillEmbeddings()).toBe(1);
      held.release();
    });
  });
});
