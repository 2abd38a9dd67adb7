import { isMemoryError } from "@claw/memory-api";
import { describe, expect, it, onTestFinished } from "vitest";
import { createHashingEmbeddingProvider } from "../embedding/hashing-embedding-provider.js";
import { keysOf, type MemoryContractHarness, openContractMemory } from "./contract-harness.js";

/** status, healthCheck, close, and two stores sharing one database. */
export function describeLifecycleContract(harness: MemoryContractHarness): void {
  const open = (options = {}) => openContractMemory(harness, options);

  describe("status", () => {
    it("keyword-only: counts, no embedding, no vector search, full-text on", async () => {
      const memory = await open();
      await memory.store("a", "one", { namespace: "alpha" });
      await memory.store("b", "two", { namespace: "beta" });
      await memory.store("c", "three", { namespace: "beta" });
      expect(await memory.status()).toMatchObject({
        backend: harness.backend,
        entries: 3,
        namespaces: 2,
        pendingEmbeddings: 0,
        missingEmbeddings: 0,
        embedding: null,
        vector: "none",
        fts: true,
      });
      expect((await memory.status()).schemaVersion).toBeGreaterThan(0);
    });
  });

  describe("healthCheck and close", () => {
    it("after close every method rejects with UNAVAILABLE and healthCheck is false", async () => {
      const memory = await open({ embeddings: createHashingEmbeddingProvider({ dimensions: 16 }) });
      await memory.store("k", "content");
      expect(await memory.healthCheck()).toBe(true);
      await memory.close();
      const calls: Record<string, () => Promise<unknown>> = {
        store: () => memory.store("k2", "content"),
        get: () => memory.get("k"),
        recall: () => memory.recall("content"),
        recallRecent: () => memory.recall(""),
        list: () => memory.list(),
        forget: () => memory.forget("k"),
        forgetMany: () => memory.forgetMany([{ key: "k" }]),
        purgeNamespace: () => memory.purgeNamespace("default"),
        purgeSession: () => memory.purgeSession("s"),
        count: () => memory.count(),
        export: () => memory.export(),
        import: () => memory.import([{ key: "k3", content: "content" }]),
        topCoreMemories: () => memory.topCoreMemories(5),
        status: () => memory.status(),
        reindex: () => memory.reindex(),
        backfillEmbeddings: () => memory.backfillEmbeddings(),
      };
      const codes: Record<string, string> = {};
      for (const [name, call] of Object.entries(calls)) {
        codes[name] = await call().then(
          () => "resolved",
          (error: unknown) => (isMemoryError(error) ? error.code : `not a MemoryError: ${String(error)}`),
        );
      }
      expect(codes).toEqual(Object.fromEntries(Object.keys(calls).map((name) => [name, "UNAVAILABLE"])));
      expect(await memory.healthCheck()).toBe(false);
      await expect(memory.close()).resolves.toBeUndefined();
    });
  });

  describe.runIf(harness.sharedStore === true)("two stores on one database (two servers)", () => {
    it("see each other's writes, recalls and deletions", async () => {
      const a = await open();
      const b = await harness.reopen(a);
      onTestFinished(() => b.close());
      expect(await b.recall("garden")).toEqual([]);
      await a.store("g", "the garden needs water");
      expect(keysOf(await b.recall("garden"))).toEqual(["g"]);
      expect((await b.get("g"))?.content).toBe("the garden needs water");
      await b.store("g", "the garden was watered");
      expect((await a.recall("garden"))[0]?.content).toBe("the garden was watered");
      expect(await a.forget("g")).toBe(true);
      expect(await b.recall("garden")).toEqual([]);
      expect(await b.count()).toBe(0);
    });
  });
}
