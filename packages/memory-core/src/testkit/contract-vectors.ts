import type { Memory } from "@claw/memory-api";
import { describe, expect, it, onTestFinished } from "vitest";
import { createHashingEmbeddingProvider } from "../embedding/hashing-embedding-provider.js";
import {
  capturingLogger,
  countingProvider,
  keysOf,
  type MemoryContractHarness,
  openContractMemory,
} from "./contract-harness.js";

const hashing = (dimensions = 64) => createHashingEmbeddingProvider({ dimensions });

/** Vectors: deferred embedding, the cache, vector and hybrid recall, import/export, reindex, backfill. */
export function describeVectorContract(harness: MemoryContractHarness): void {
  const open = (options = {}) => openContractMemory(harness, options);
  const reopen = async (memory: Memory, options = {}) => {
    const again = await harness.reopen(memory, options);
    onTestFinished(() => again.close());
    return again;
  };

  describe("deferred embeddings", () => {
    it("commit the entry first and embed in the background; flush waits for them", async () => {
      const counting = countingProvider(hashing());
      counting.hold();
      const memory = await open({ embeddings: counting.provider });
      await memory.store("a", "notes about the launch");
      expect((await memory.recall("launch", { mode: "bm25" })).map((e) => e.key)).toEqual(["a"]);
      expect((await memory.status()).pendingEmbeddings).toBe(1);
      counting.release();
      await memory.flush();
      const status = await memory.status();
      expect([status.pendingEmbeddings, status.missingEmbeddings]).toEqual([0, 0]);
      expect((await memory.recall("launch", { mode: "embedding" })).map((e) => e.key)).toEqual(["a"]);
    });

    it("embed synchronously when deferEmbedding is false", async () => {
      const memory = await open({ embeddings: hashing(), settings: { deferEmbedding: false } });
      await memory.store("a", "notes about the launch");
      const status = await memory.status();
      expect([status.pendingEmbeddings, status.missingEmbeddings]).toEqual([0, 0]);
    });

    it("reuse cached vectors for repeated content", async () => {
      const counting = countingProvider(hashing());
      const memory = await open({ embeddings: counting.provider });
      await memory.store("a", "same words");
      await memory.flush();
      await memory.store("b", "same words");
      await memory.flush();
      expect(counting.calls.texts).toBe(1);
      expect((await memory.status()).missingEmbeddings).toBe(0);
    });

    it("keep an unchanged entry's vector and re-embed a changed one", async () => {
      const counting = countingProvider(hashing());
      const memory = await open({ embeddings: counting.provider });
      await memory.store("a", "first text");
      await memory.flush();
      await memory.store("a", "first text");
      await memory.flush();
      expect(counting.calls.texts).toBe(1);
      await memory.store("a", "second text");
      await memory.flush();
      const [entry] = await memory.export({ includeEmbeddings: true });
      const [expected] = await hashing().embed(["second text"]);
      expect(Array.from(entry?.embedding ?? [])).toEqual(Array.from(expected as Float32Array));
    });
  });

  describe("embedding before the write (deferEmbedding false)", () => {
    const inline = { deferEmbedding: false, embeddingMaxRetries: 0 };
    const vectorOf = async (text: string) =>
      Array.from(((await hashing().embed([text])) as Float32Array[])[0] ?? []);

    it("a store() returns with its vector, computed by one request", async () => {
      const counting = countingProvider(hashing());
      const memory = await open({ embeddings: counting.provider, settings: inline });
      await memory.store("a", "notes about the launch");
      expect(counting.calls.document).toBe(1);
      const [entry] = await memory.export({ includeEmbeddings: true });
      expect(Array.from(entry?.embedding ?? [])).toEqual(await vectorOf("notes about the launch"));
      expect((await memory.status()).missingEmbeddings).toBe(0);
    });

    it("an import's vectors go out in the provider's batches; vectors it brings are kept", async () => {
      const counting = countingProvider(hashing());
      const provider = { ...counting.provider, maxBatchSize: 2 };
      const memory = await open({ embeddings: provider, settings: inline });
      const brought = Float32Array.from({ length: 64 }, (_, i) => (i === 3 ? 1 : 0));
      await memory.import([
        ...["one", "two", "three", "four", "five"].map((word) => ({ key: word, content: `entry ${word}` })),
        { key: "own", content: "entry with its own vector", embedding: brought },
      ]);
      expect([counting.calls.document, counting.calls.texts]).toEqual([3, 5]);
      const vectors = new Map(
        (await memory.export({ includeEmbeddings: true })).map((e) => [e.key, Array.from(e.embedding ?? [])]),
      );
      expect(vectors.get("four")).toEqual(await vectorOf("entry four"));
      expect(vectors.get("own")).toEqual(Array.from(brought));
      expect((await memory.status()).missingEmbeddings).toBe(0);
    });

    it("a failing provider leaves the entry keyword-only, warned once, without asking it twice", async () => {
      let requests = 0;
      const down = {
        id: "down",
        model: "m",
        dimensions: 8,
        async embed(): Promise<Float32Array[]> {
          requests++;
          throw new Error("provider down");
        },
      };
      const logger = capturingLogger();
      const memory = await open({ embeddings: down, settings: inline, logger });
      await memory.store("a", "notes about the launch");
      await memory.import([{ key: "b", content: "more notes" }]);
      expect(requests).toBe(2);
      expect(logger.warnings.filter((w) => w.startsWith("embedding failed"))).toHaveLength(1);
      expect((await memory.recall("notes", { mode: "bm25" })).map((e) => e.key).sort()).toEqual(["a", "b"]);
      expect((await memory.status()).missingEmbeddings).toBe(2);
    });
  });

  describe("vector recall", () => {
    it("embedding mode ranks by cosine similarity; hybrid fuses it with keywords", async () => {
      const memory = await open({ embeddings: hashing(), settings: { ftsEarlyReturnScore: 1 } });
      await memory.store("fruit", "red apples and green pears");
      await memory.store("cars", "fast cars on the highway");
      await memory.store("pie", "apple pie recipe");
      await memory.flush();
      const byVector = await memory.recall("green apple", { mode: "embedding", limit: 3 });
      expect(byVector.map((e) => e.key).slice(0, 2)).toEqual(["fruit", "pie"]);
      expect(byVector[0]?.score).toBeGreaterThan(byVector[1]?.score as number);
      expect(byVector[0]?.score).toBeLessThanOrEqual(1);
      const hybrid = await memory.recall("apple pie", { limit: 3 });
      expect(hybrid[0]?.key).toBe("pie");
    });

    it("withEmbeddings returns each entry's vector", async () => {
      const memory = await open({ embeddings: hashing(16), settings: { deferEmbedding: false } });
      await memory.store("a", "tea with milk");
      const [hit] = await memory.recall("tea", { withEmbeddings: true });
      expect(hit?.embedding).toEqual((await hashing(16).embed(["tea with milk"]))[0]);
    });

    it("finds a rare filtered entry beyond the nearest neighbours", async () => {
      const memory = await open({ embeddings: hashing(32) });
      const bulk = Array.from({ length: 300 }, (_, i) => ({
        key: `k${i}`,
        content: `meeting notes about topic ${i}`,
      }));
      await memory.import([
        ...bulk,
        { key: "target", content: "meeting notes about zebra", sessionId: "rare" },
      ]);
      await memory.flush();
      const hits = await memory.recall("meeting notes", { mode: "embedding", sessionId: "rare" });
      expect(hits.map((e) => e.key)).toEqual(["target"]);
    });

    it("purges remove the vectors too", async () => {
      const memory = await open({ embeddings: hashing() });
      await memory.store("a1", "Garden tomatoes ripen in August", { namespace: "alpha" });
      await memory.store("b1", "Garden tomatoes ripen in August", { namespace: "beta", sessionId: "s9" });
      await memory.flush();
      expect(await memory.recall("tomatoes ripen", { namespace: "*", mode: "embedding" })).toHaveLength(2);
      expect(await memory.purgeNamespace("alpha")).toBe(1);
      expect(await memory.purgeSession("s9")).toBe(1);
      expect(await memory.recall("tomatoes ripen", { namespace: "*", mode: "embedding" })).toEqual([]);
    });
  });

  describe("vectors through export and import", () => {
    it("the same provider keeps imported vectors; other dimensions are re-embedded", async () => {
      const source = await open({ embeddings: hashing(32) });
      await source.store("garden", "Tomatoes grow best against the south wall");
      await source.flush();
      const exported = await source.export({ includeEmbeddings: true });
      expect(exported[0]?.embedding).toHaveLength(32);

      const same = countingProvider(hashing(32));
      const target = await open({ embeddings: same.provider });
      await target.import([...exported, { key: "fresh", content: "An entry without a vector" }]);
      await target.flush();
      expect(same.calls.texts).toBe(1);
      const copy = await target.export({ includeEmbeddings: true });
      expect(copy.find((e) => e.key === "garden")?.embedding).toEqual(exported[0]?.embedding);
      expect((await target.recall("tomatoes wall", { mode: "embedding" }))[0]?.key).toBe("garden");

      const other = countingProvider(hashing(16));
      const resized = await open({ embeddings: other.provider });
      await resized.import(exported);
      await resized.flush();
      expect(other.calls.texts).toBe(1);
      expect((await resized.export({ includeEmbeddings: true }))[0]?.embedding).toHaveLength(16);
    });
  });

  describe("status, embed, reindex and backfill", () => {
    it("status names the provider and the vector search", async () => {
      const memory = await open({ embeddings: hashing(48) });
      await memory.store("a", "Some content to embed");
      await memory.flush();
      const status = await memory.status();
      expect(status.embedding).toEqual({ provider: "hashing", model: "hashing-v1", dimensions: 48 });
      expect(status.vector).toBe(harness.vectorKind);
      expect(status.backend).toBe(harness.backend);
    });

    it("embed shares the document cache; query vectors are not cached", async () => {
      const counting = countingProvider(hashing(32));
      const memory = await open({ embeddings: counting.provider, settings: { deferEmbedding: false } });
      const vectors = await memory.embed?.(["the user prefers tabs"]);
      expect(vectors?.[0]).toHaveLength(32);
      await memory.store("indent", "the user prefers tabs");
      expect(counting.calls.document).toBe(1);
      await memory.embed?.(["a question"], { purpose: "query" });
      await memory.embed?.(["a question"], { purpose: "query" });
      expect(counting.calls.query).toBe(2);
    });

    it("reindex rebuilds every vector and the keyword index", async () => {
      const counting = countingProvider(hashing(32));
      const memory = await open({ embeddings: counting.provider });
      await memory.import([
        { key: "a", content: "alpha text" },
        { key: "b", content: "beta text" },
      ]);
      await memory.flush();
      const progress: Array<[number, number]> = [];
      expect(await memory.reindex({ onProgress: (done, total) => progress.push([done, total]) })).toBe(2);
      expect(progress.at(-1)).toEqual([2, 2]);
      expect((await memory.status()).missingEmbeddings).toBe(0);
      expect(keysOf(await memory.recall("text", { mode: "bm25" }))).toEqual(["a", "b"]);
    });

    it("backfill embeds entries stored while no provider was set", async () => {
      const plain = await open();
      await plain.import([
        { key: "a", content: "alpha apples" },
        { key: "b", content: "beta bananas" },
      ]);
      await plain.close();
      const memory = await reopen(plain, { embeddings: hashing(32) });
      expect((await memory.status()).missingEmbeddings).toBe(2);
      const progress: Array<[number, number]> = [];
      expect(await memory.backfillEmbeddings(1, { onProgress: (d, t) => progress.push([d, t]) })).toBe(2);
      expect(progress).toEqual([
        [1, 2],
        [2, 2],
      ]);
      expect((await memory.status()).missingEmbeddings).toBe(0);
      expect((await memory.recall("apples", { mode: "embedding", limit: 1 }))[0]?.key).toBe("a");
      expect(await memory.backfillEmbeddings()).toBe(0);
    });

    it("a new provider, model or dimensions sets the old vectors aside until re-embedded", async () => {
      const first = await open({ embeddings: hashing(32) });
      await first.store("a", "alpha apples");
      await first.close();
      const memory = await reopen(first, { embeddings: hashing(16) });
      expect((await memory.status()).missingEmbeddings).toBe(1);
      expect((await memory.export({ includeEmbeddings: true }))[0]?.embedding).toBeUndefined();
      expect(await memory.backfillEmbeddings()).toBe(1);
      expect((await memory.export({ includeEmbeddings: true }))[0]?.embedding).toHaveLength(16);
    });

    it("close drains deferred embeddings", async () => {
      const first = await open({ embeddings: hashing(16) });
      for (let i = 0; i < 20; i++) await first.store(`k${i}`, `entry number ${i}`);
      await first.close();
      const again = await reopen(first, { embeddings: hashing(16) });
      expect((await again.status()).missingEmbeddings).toBe(0);
    });
  });
}
