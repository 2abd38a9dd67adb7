import type { Memory } from "@claw/memory-api";
import { isMemoryError } from "@claw/memory-api";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { createHashingEmbeddingProvider } from "../embedding/hashing-embedding-provider.js";
import { SCHEMA_VERSION } from "./schema.js";
import { capturingLogger, openTestMemory } from "./test-support/temp-memory.js";

/** A clock the test moves by hand. */
function manualClock(start = "2025-01-01T00:00:00.000Z") {
  let time = Date.parse(start);
  return {
    now: () => new Date(time),
    advance(ms: number) {
      time += ms;
    },
  };
}

function keysOf(entries: ReadonlyArray<{ key: string }>): string[] {
  return entries.map((e) => e.key).sort();
}

describe("store is an upsert by (namespace, key)", () => {
  it("keeps one row, the original id and createdAt, and moves updatedAt", async () => {
    const clock = manualClock();
    const memory = openTestMemory({ now: clock.now });
    const first = await memory.store("editor", "The user edits code in Vim");
    clock.advance(60_000);
    const second = await memory.store("editor", "The user edits code in Helix");

    expect(await memory.count()).toBe(1);
    expect(second.id).toBe(first.id);
    expect(first.createdAt).toBe("2025-01-01T00:00:00.000Z");
    expect(second.createdAt).toBe("2025-01-01T00:00:00.000Z");
    expect(second.updatedAt).toBe("2025-01-01T00:01:00.000Z");
    expect(second.timestamp).toBe(second.updatedAt);
    const stored = await memory.get("editor");
    expect(stored).toMatchObject({
      id: first.id,
      content: "The user edits code in Helix",
      createdAt: "2025-01-01T00:00:00.000Z",
      updatedAt: "2025-01-01T00:01:00.000Z",
    });
  });

  it("the old content is no longer found by keyword, the new one is", async () => {
    const clock = manualClock();
    const memory = openTestMemory({ now: clock.now });
    await memory.store("editor", "The user edits code in Vim");
    expect(keysOf(await memory.recall("Vim"))).toEqual(["editor"]);
    clock.advance(1000);
    await memory.store("editor", "The user edits code in Helix");

    expect(await memory.recall("Vim", { mode: "bm25" })).toEqual([]);
    expect(keysOf(await memory.recall("Helix"))).toEqual(["editor"]);
  });
});

describe("namespaces are isolated", () => {
  async function twoNamespaces() {
    const memory = openTestMemory();
    await memory.store("k", "Content of k in alpha", { namespace: "alpha" });
    await memory.store("k", "Content of k in beta", { namespace: "beta" });
    await memory.store("only-alpha", "Another alpha entry", { namespace: "alpha" });
    return memory;
  }

  it("get reads its own namespace; the default namespace is separate", async () => {
    const memory = await twoNamespaces();
    expect((await memory.get("k", { namespace: "alpha" }))?.content).toBe("Content of k in alpha");
    expect((await memory.get("k", { namespace: "beta" }))?.content).toBe("Content of k in beta");
    expect(await memory.get("k")).toBeNull();
    expect(await memory.get("only-alpha", { namespace: "beta" })).toBeNull();
  });

  it("list and count", async () => {
    const memory = await twoNamespaces();
    expect(keysOf(await memory.list({ namespace: "alpha" }))).toEqual(["k", "only-alpha"]);
    expect(keysOf(await memory.list({ namespace: "beta" }))).toEqual(["k"]);
    expect(await memory.list()).toEqual([]);
    expect(await memory.count({ namespace: "alpha" })).toBe(2);
    expect(await memory.count({ namespace: "beta" })).toBe(1);
    expect(await memory.count({ namespace: "default" })).toBe(0);
    expect(await memory.count()).toBe(3);
  });

  it("forget removes only the entry in the given namespace", async () => {
    const memory = await twoNamespaces();
    expect(await memory.forget("k")).toBe(false);
    expect(await memory.forget("k", { namespace: "alpha" })).toBe(true);
    expect(await memory.forget("k", { namespace: "alpha" })).toBe(false);

    expect(await memory.get("k", { namespace: "alpha" })).toBeNull();
    expect((await memory.get("k", { namespace: "beta" }))?.content).toBe("Content of k in beta");
    expect(await memory.count()).toBe(2);
  });

  it("recall reads its own namespace unless asked for every one", async () => {
    const memory = await twoNamespaces();
    expect((await memory.recall("content", { namespace: "beta" })).map((e) => e.namespace)).toEqual(["beta"]);
    expect(await memory.recall("content")).toEqual([]);
    const everywhere = await memory.recall("content", { namespace: "*" });
    expect(everywhere.map((e) => e.namespace).sort()).toEqual(["alpha", "beta"]);
  });
});

describe("purgeNamespace and purgeSession", () => {
  async function filled(): Promise<Memory> {
    const memory = openTestMemory();
    await memory.store("a1", "Garden tomatoes in alpha", { namespace: "alpha", sessionId: "s1" });
    await memory.store("a2", "Garden beans in alpha", { namespace: "alpha", sessionId: "s2" });
    await memory.store("b1", "Garden peas in beta", { namespace: "beta", sessionId: "s1" });
    await memory.store("d1", "Garden herbs in default");
    return memory;
  }

  it("purgeNamespace returns the count and removes only that namespace", async () => {
    const memory = await filled();
    // Warm the hot cache so a stale result would show.
    expect(keysOf(await memory.recall("garden", { namespace: "*", limit: 10 }))).toEqual([
      "a1",
      "a2",
      "b1",
      "d1",
    ]);

    expect(await memory.purgeNamespace("alpha")).toBe(2);
    expect(await memory.count({ namespace: "alpha" })).toBe(0);
    expect(await memory.count()).toBe(2);
    expect(keysOf(await memory.recall("garden", { namespace: "*", limit: 10 }))).toEqual(["b1", "d1"]);
    expect(await memory.recall("tomatoes", { namespace: "alpha" })).toEqual([]);
    expect(await memory.purgeNamespace("alpha")).toBe(0);
  });

  it("purgeSession returns the count and removes only that session, across namespaces", async () => {
    const memory = await filled();
    expect(keysOf(await memory.recall("garden", { namespace: "*", limit: 10 }))).toEqual([
      "a1",
      "a2",
      "b1",
      "d1",
    ]);

    expect(await memory.purgeSession("s1")).toBe(2);
    expect(keysOf(await memory.list({ namespace: "*" }))).toEqual(["a2", "d1"]);
    expect(keysOf(await memory.recall("garden", { namespace: "*", limit: 10 }))).toEqual(["a2", "d1"]);
    expect(await memory.recall("peas", { namespace: "beta" })).toEqual([]);
    expect(await memory.purgeSession("s1")).toBe(0);
    expect(await memory.purgeSession("no-such-session")).toBe(0);
  });

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
  it("orders by importance, then recency, and leaves out other categories and superseded entries", async () => {
    const clock = manualClock();
    const memory = openTestMemory({ now: clock.now });
    await memory.store("mid-old", "Core fact stored first", { importance: 0.5 });
    clock.advance(1000);
    await memory.store("high", "Core fact of high importance", { importance: 0.9 });
    clock.advance(1000);
    await memory.store("mid-new", "Core fact stored last", { importance: 0.5 });
    clock.advance(1000);
    await memory.store("daily", "A daily note that matters a lot", { category: "daily", importance: 1 });
    await memory.store("custom", "A custom-category note", { category: "project", importance: 1 });
    await memory.store("other-ns", "Core fact elsewhere", { namespace: "elsewhere", importance: 1 });
    await memory.import([
      {
        key: "replaced",
        content: "Core fact that was replaced",
        category: "core",
        importance: 1,
        supersededBy: "high",
      },
    ]);

    const top = await memory.topCoreMemories(10);
    expect(top.map((e) => e.key)).toEqual(["high", "mid-new", "mid-old"]);
    expect((await memory.topCoreMemories(2)).map((e) => e.key)).toEqual(["high", "mid-new"]);
    expect((await memory.topCoreMemories(10, { namespace: "elsewhere" })).map((e) => e.key)).toEqual([
      "other-ns",
    ]);
  });

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
  it("keyword-only: counts, no embedding, no vector index, FTS on", async () => {
    const memory = openTestMemory();
    await memory.store("a", "one", { namespace: "alpha" });
    await memory.store("b", "two", { namespace: "beta" });
    await memory.store("c", "three", { namespace: "beta" });

    const status = await memory.status();
    expect(status).toMatchObject({
      backend: "sqlite",
      entries: 3,
      namespaces: 2,
      pendingEmbeddings: 0,
      missingEmbeddings: 0,
      embedding: null,
      vector: "none",
      fts: true,
      schemaVersion: SCHEMA_VERSION,
    });
    expect(status.path).toMatch(/brain\.db$/);
    expect(status.sizeBytes).toBeGreaterThan(0);
    expect(status.warnings).toBeUndefined();
  });

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

  it("after close every method rejects with UNAVAILABLE and healthCheck is false", async () => {
    const memory = openTestMemory({ embeddings: createHashingEmbeddingProvider({ dimensions: 16 }) });
    await memory.store("k", "content");
    await memory.close();

    const calls: Record<string, () => Promise<unknown>> = {
      store: () => memory.store("k2", "content"),
      get: () => memory.get("k"),
      recall: () => memory.recall("content"),
      recallRecent: () => memory.recall(""),
      list: () => memory.list(),
      forget: () => memory.forget("k"),
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
