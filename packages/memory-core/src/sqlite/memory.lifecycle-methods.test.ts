import type { Memory } from "@claw/memory-api";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { createHashingEmbeddingProvider } from "../embedding/hashing-embedding-provider.js";
import { capturingLogger, openTestMemory } from "./test-support/temp-memory.js";

describe("namespaces are isolated", () => {
  async function twoNamespaces() {
    const memory = openTestMemory();
    await memory.store("k", "Content of k in alpha", { namespace: "alpha" });
    await memory.store("k", "Content of k in beta", { namespace: "beta" });
    await memory.store("only-alpha", "Another alpha entry", { namespace: "alpha" });
    return memory;
  }

  it("recall reads its own namespace unless asked for every one", async () => {
    const memory = await twoNamespaces();
    expect((await memory.recall("content", { namespace: "beta" })).map((e) => e.namespace)).toEqual(["beta"]);
    expect(await memory.recall("content")).toEqual([]);
    const everywhere = await memory.recall("content", { namespace: "*" });
    expect(everywhere.map((e) => e.namespace).sort()).toEqual(["alpha", "beta"]);
  });
});

describe("purgeNamespace and purgeSession", () => {
  async function _filled(): Promise<Memory> {
    const memory = openTestMemory();
    await memory.store("a1", "Garden tomatoes in alpha", { namespace: "alpha", sessionId: "s1" });
    await memory.store("a2", "Garden beans in alpha", { namespace: "alpha", sessionId: "s2" });
    await memory.store("b1", "Garden peas in beta", { namespace: "beta", sessionId: "s1" });
    await memory.store("d1", "Garden herbs in default");
    return memory;
  }

  it("purges also remove the vectors: vector recall no longer finds them", async () => {
    const memory = openTestMemory({ embeddings: createHashingEmbeddingProvider({ dimensions: 64 }) });
    await memory.store("a1", "Garden tomatoes ripen in August", { namespace: "alpha" });
    await memory.store("b1", "Garden tomatoes ripen in August", { namespace: "beta", sessionId: "s9" });
    await memory.flush();
    expect((await memory.recall("tomatoes ripen", { namespace: "*", mode: "embedding" })).length).toBe(2);

    expect(await memory.purgeNamespace("alpha")).toBe(1);
    expect(await memory.purgeSession("s9")).toBe(1);
    expect(await memory.recall("tomatoes ripen", { namespace: "*", mode: "embedding" })).toEqual([]);
  });
});

describe("topCoreMemories", () => {
  it("import fills a missing importance (core 0.7), which ranks above a lower given one", async () => {
    const memory = openTestMemory();
    await memory.import([
      { key: "unscored", content: "Imported core entry", category: "core" },
      { key: "scored", content: "Imported core entry two", category: "core", importance: 0.1 },
    ]);
    // import computes the importance when not given (core 0.7), so "unscored" is not at 0.
    const top = await memory.topCoreMemories(10);
    expect(top.map((e) => e.key)).toEqual(["unscored", "scored"]);
    expect(top[0]?.importance).toBeCloseTo(0.7);
  });
});

describe("status", () => {
  it("with the hashing provider: the embedding and the sqlite-vec index", async () => {
    const memory = openTestMemory({ embeddings: createHashingEmbeddingProvider({ dimensions: 48 }) });
    await memory.store("a", "Some content to embed");
    await memory.flush();

    const status = await memory.status();
    expect(status.embedding).toEqual({ provider: "hashing", model: "hashing-v1", dimensions: 48 });
    expect(status.vector).toBe("sqlite-vec");
    expect(status.missingEmbeddings).toBe(0);
    expect(status.pendingEmbeddings).toBe(0);
    expect(status.warnings).toBeUndefined();
  });

  it("without sqlite-vec: vectors compared in JavaScript, and a warning says so", async () => {
    const memory = openTestMemory({
      embeddings: createHashingEmbeddingProvider({ dimensions: 48 }),
      loadVectorExtension: false,
    });
    await memory.store("a", "Tomatoes grow best against the south wall");
    await memory.flush();

    const status = await memory.status();
    expect(status.vector).toBe("js");
    expect(status.warnings?.some((w) => w.includes("sqlite-vec"))).toBe(true);
    expect((await memory.recall("tomatoes wall", { mode: "embedding" })).map((e) => e.key)).toEqual(["a"]);
  });
});

describe("healthCheck and close", () => {
  it("healthCheck is true while open", async () => {
    const memory = openTestMemory();
    expect(await memory.healthCheck()).toBe(true);
  });

  it("close twice is fine", async () => {
    const memory = openTestMemory();
    await memory.close();
    await expect(memory.close()).resolves.toBeUndefined();
    expect(await memory.healthCheck()).toBe(false);
  });

  it("close waits for deferred embeddings and logs nothing when they finish", async () => {
    const logger = capturingLogger();
    const memory = openTestMemory({ embeddings: createHashingEmbeddingProvider({ dimensions: 16 }), logger });
    const path = (await memory.status()).path as string;
    await memory.store("k", "content to embed before closing");
    await memory.close();

    expect(logger.warnings).toEqual([]);
    const db = new Database(path, { readonly: true });
    try {
      const row = db.prepare("SELECT length(embedding) AS bytes FROM memories WHERE key = 'k'").get() as {
        bytes: number | null;
      };
      expect(row.bytes).toBe(16 * 4);
    } finally {
      db.close();
    }
  });
});
