// An import on a real server streams its rows by binary COPY into a staging table and upserts them
// from there (bulk-write.ts); PGlite, which takes no COPY, writes them by INSERTs. Both hold the
// same entries afterwards, to the bit.
import type { EmbeddingProvider, MemoryEntry } from "@claw/memory-api";
import { DEFAULT_CONFIG, type EntryWrite } from "@claw/memory-core";
import { describe, expect, it, onTestFinished } from "vitest";
import { endPool } from "../db/pool.js";
import { PostgresMemory } from "../postgres-memory.js";
import { countedPool } from "../test-support/counted-pool.js";
import { forEachTestDatabase } from "../test-support/test-database.js";
import { stageWrites } from "./bulk-write.js";

const DIMENSIONS = 4;
/** Floats a decimal form could round: the smallest subnormal, -FLT_MIN, the largest float32, a third. */
const TRICKY = [
  Float32Array.of(1.4e-45, -1.1754943508222875e-38, 3.4028234663852886e38, 1 / 3),
  Float32Array.of(0.1, 0.2, 0.3, -1e-30),
];

/** Vectors that only an import gives: nothing is embedded here. */
const noEmbedding: EmbeddingProvider = {
  id: "fixed",
  model: "fixed-v1",
  dimensions: DIMENSIONS,
  embed: async (texts) => texts.map(() => new Float32Array(DIMENSIONS).fill(0.5)),
};

function write(key: string, extra: Partial<EntryWrite> = {}): EntryWrite {
  return {
    key,
    content: `content of ${key}`,
    category: "fact",
    namespace: "ns",
    sessionId: null,
    importance: 0.5,
    supersededBy: null,
    id: `id-${key}`,
    idFromCaller: false,
    createdAt: "2026-11-01T00:00:00.000Z",
    updatedAt: "2026-11-01T00:00:00.000Z",
    embedding: null,
    source: null,
    context: null,
    metadata: null,
    expiresAt: null,
    change: null,
    actor: "test",
    keepCreatedAt: false,
    ...extra,
  };
}

describe("staging an import's writes", () => {
  it("splits chunks where a key or a caller's id comes again, or the conflict rule changes; sorts each", () => {
    let next = 0;
    const staged = stageWrites(
      [
        write("b"),
        write("a"),
        write("b"),
        write("c", { id: "x", idFromCaller: true }),
        write("d", { id: "x", idFromCaller: true }),
        write("e", { skipExisting: true }),
      ],
      () => `fresh-${next++}`,
    );
    expect(staged.rows).toBe(6);
    expect(staged.chunks).toEqual([
      { from: 0, to: 2, skip: false, keepCreatedAt: false },
      { from: 2, to: 4, skip: false, keepCreatedAt: false },
      { from: 4, to: 5, skip: false, keepCreatedAt: false },
      { from: 5, to: 6, skip: true, keepCreatedAt: false },
    ]);
    // A fresh id is made for each caller's id, in case it is taken.
    expect(next).toBe(2);
  });

  it("throws a bad write's error before anything is encoded for the server", () => {
    function* writes(): Generator<EntryWrite> {
      yield write("a");
      throw new Error("entry 2: bad");
    }
    expect(() => stageWrites(writes(), () => "fresh")).toThrow("entry 2: bad");
  });
});

forEachTestDatabase((database) => {
  /**
   * A store on `url` (default the test database) through a pool that keeps what it sends. After
   * the test the store closes, then the pool, then `afterClose` runs, once no connection is left.
   */
  async function countedMemory(url = database().url, afterClose = async () => {}) {
    const { pool, sent } = countedPool(url);
    const memory = await PostgresMemory.open({
      pool,
      schema: database().newSchema(),
      settings: { ...DEFAULT_CONFIG.memory, hotCacheSize: 0 },
      embeddings: noEmbedding,
    });
    onTestFinished(async () => {
      await memory.close();
      await endPool(pool);
      await afterClose();
    });
    return { memory, pool, sent };
  }

  describe("an import's rows on the wire", () => {
    it("go by COPY on a real server and by INSERT on PGlite, and come back to the bit", async () => {
      const { memory, sent } = await countedMemory();
      const entries = [
        {
          key: "tricky",
          content: 'tabs\tnewlines\nbackslashes\\ quotes\' "double" — 漢字 😀',
          category: "preference" as const,
          namespace: "ns-1",
          importance: 0.8,
          metadata: { nested: { list: [1, "two", null] }, emoji: "😀" },
          context: "a context, with words",
          source: { path: "notes/a.md", startLine: 3, endLine: 9 },
          createdAt: "1999-12-31T23:59:59.999Z",
          updatedAt: "2026-11-29T12:00:00.123Z",
          expiresAt: "2099-01-01T00:00:00.000Z",
          embedding: TRICKY[0],
        },
        {
          key: "turn",
          content: "a turn",
          category: "conversation" as const,
          namespace: "ns-1",
          sessionId: "s1",
          createdAt: "2026-11-29T12:00:00.000Z",
          embedding: TRICKY[1],
        },
        { key: "plain", content: "no vector", namespace: "ns-2" },
      ];
      sent.length = 0;
      expect(await memory.import(entries)).toBe(3);
      const copies = sent.filter((text) => text.startsWith("COPY "));
      expect(copies).toHaveLength(database().kind === "server" ? 1 : 0);

      const exported = new Map<string, MemoryEntry>();
      for (const entry of await memory.export({ namespace: "*", includeEmbeddings: true })) {
        exported.set(entry.key, entry);
      }
      const tricky = exported.get("tricky");
      expect(tricky).toMatchObject({
        content: entries[0]?.content,
        category: "preference",
        namespace: "ns-1",
        importance: 0.8,
        metadata: entries[0]?.metadata,
        context: "a context, with words",
        source: { path: "notes/a.md", startLine: 3, endLine: 9 },
        createdAt: "1999-12-31T23:59:59.999Z",
        updatedAt: "2026-11-29T12:00:00.123Z",
        expiresAt: "2099-01-01T00:00:00.000Z",
      });
      expect(tricky?.sessionId ?? null).toBeNull();
      // Exactly the float32 values given, the subnormal too.
      expect(Array.from(tricky?.embedding ?? [])).toEqual(Array.from(TRICKY[0] as Float32Array));
      expect(Array.from(exported.get("turn")?.embedding ?? [])).toEqual(
        Array.from(TRICKY[1] as Float32Array),
      );
      expect(exported.get("turn")?.sessionId).toBe("s1");
      expect(exported.get("plain")?.embedding ?? null).toBeNull();
      // Found by its words, through the full text the upsert built from the staged row.
      const hits = await memory.recall("backslashes 漢字", { namespace: "ns-1", mode: "bm25" });
      expect(hits.map((h) => h.key)).toEqual(["tricky"]);
    });

    it("go by INSERT for a role that may not create temporary tables, and arrive all the same", async () => {
      // A role of its own with a database of its own; on a real server TEMPORARY is then taken from
      // it (and from PUBLIC), so the staging table cannot be made. PGlite never takes COPY anyway.
      const bare = await database().withoutPgvector();
      const name = decodeURIComponent(new URL(bare.url).pathname.slice(1));
      if (database().kind === "server") {
        await database().query(`REVOKE TEMPORARY ON DATABASE "${name}" FROM PUBLIC, "${name}"`);
      }
      // The database is dropped once the pool's last connection has closed.
      const { memory, pool, sent } = await countedMemory(bare.url, () => bare.close());
      const [probe] = (
        await pool.query("SELECT has_database_privilege(current_database(), 'TEMPORARY') AS t")
      ).rows;
      expect(probe?.t).toBe(database().kind !== "server");
      sent.length = 0;
      const entries = Array.from({ length: 30 }, (_, i) => ({ key: `k${i}`, content: `imported row ${i}` }));
      expect(await memory.import(entries)).toBe(30);
      expect(sent.filter((text) => text.startsWith("COPY ") || text.includes("TEMP TABLE"))).toEqual([]);
      expect((await memory.export()).map((e) => e.key).sort()).toEqual(entries.map((e) => e.key).sort());
    });
  });
});
