import { join } from "node:path";
import { isMemoryError } from "@claw/memory-api";
import Database from "better-sqlite3";
import { describe, expect, it, onTestFinished } from "vitest";
import { DEFAULT_CONFIG } from "../config/config-schema.js";
import { createHashingEmbeddingProvider } from "../embedding/hashing-embedding-provider.js";
import { SqliteMemory } from "./sqlite-memory.js";
import { capturingLogger, countingProvider, openTestMemory, tempDir } from "./test-support/temp-memory.js";

describe("deferred embeddings", () => {
  it("drops a vector whose content changed while it was being computed", async () => {
    const inner = createHashingEmbeddingProvider();
    let releaseFirst: () => void = () => {};
    const firstHeld = new Promise<void>((resolve) => {
      releaseFirst = resolve;
    });
    let documentCalls = 0;
    // The first request (old content) answers only after the second (new content) has been
    // written: without the guard its stale vector would overwrite the new one.
    const slowFirst = {
      ...inner,
      id: inner.id,
      model: inner.model,
      dimensions: inner.dimensions,
      maxBatchSize: 1,
      async embed(texts: readonly string[], options?: { purpose?: "query" | "document" }) {
        if (options?.purpose !== "query" && documentCalls++ === 0) await firstHeld;
        return inner.embed(texts, options);
      },
    };
    // One text a request (maxBatchSize). With a batch running, another starts only for more than a
    // batch of jobs: the second version goes beside the first with another entry's job behind it.
    const memory = openTestMemory({ embeddings: slowFirst });
    await memory.store("a", "the first version of the text");
    await new Promise((resolve) => setImmediate(resolve)); // the first request is now in flight
    await Promise.all([
      memory.store("a", "a completely different second version"),
      memory.store("b", "another entry"),
    ]);
    while (documentCalls < 2) await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    releaseFirst();
    await memory.flush();
    const exported = (await memory.export({ includeEmbeddings: true })).find((e) => e.key === "a");
    const [expected] = await inner.embed(["a completely different second version"]);
    expect(documentCalls).toBe(3);
    expect(Array.from(exported?.embedding ?? [])).toEqual(Array.from(expected as Float32Array));
  });
});

describe("vector index", () => {
  it("uses sqlite-vec when it loads and gives the same answers as the JavaScript fallback", async () => {
    const docs = ["red apples and green pears", "fast cars on the highway", "apple pie recipe", "green tea"];
    const vec = openTestMemory({ embeddings: createHashingEmbeddingProvider() });
    const js = openTestMemory({ embeddings: createHashingEmbeddingProvider(), loadVectorExtension: false });
    for (const memory of [vec, js]) {
      for (const [i, text] of docs.entries()) await memory.store(`d${i}`, text);
      await memory.flush();
    }
    expect((await vec.status()).vector).toBe("sqlite-vec");
    expect((await js.status()).vector).toBe("js");
    const a = await vec.recall("green apple", { mode: "embedding", limit: 4 });
    const b = await js.recall("green apple", { mode: "embedding", limit: 4 });
    expect(a.map((e) => e.key)).toEqual(b.map((e) => e.key));
    for (const [i, e] of a.entries()) expect(e.score).toBeCloseTo(b[i]?.score as number, 5);
  });

  it("sets old vectors aside when the provider fingerprint changes, and backfill restores them", async () => {
    const path = join(tempDir(), "brain.db");
    const first = SqliteMemory.open({ path, embeddings: createHashingEmbeddingProvider({ dimensions: 64 }) });
    await first.import([
      { key: "a", content: "alpha text" },
      { key: "b", content: "beta text" },
    ]);
    await first.close();
    const logger = capturingLogger();
    const second = SqliteMemory.open({
      path,
      embeddings: createHashingEmbeddingProvider({ dimensions: 32 }),
      logger,
    });
    expect((await second.status()).missingEmbeddings).toBe(2);
    expect(logger.warnings.some((w) => w.includes("changed"))).toBe(true);
    const progress: Array<[number, number]> = [];
    expect(await second.backfillEmbeddings(1, { onProgress: (d, t) => progress.push([d, t]) })).toBe(2);
    expect(progress).toEqual([
      [1, 2],
      [2, 2],
    ]);
    const status = await second.status();
    expect(status.missingEmbeddings).toBe(0);
    expect(status.embedding?.dimensions).toBe(32);
    expect((await second.recall("alpha", { mode: "embedding", limit: 1 })).map((e) => e.key)).toEqual(["a"]);
    await second.close();
  });

  it("reindex rebuilds the keyword index and re-embeds every entry", async () => {
    const counting = countingProvider(createHashingEmbeddingProvider());
    const memory = openTestMemory({ embeddings: counting.provider, settings: { embeddingCacheMax: 0 } });
    await memory.import([
      { key: "a", content: "alpha text" },
      { key: "b", content: "苹果 text" },
    ]);
    await memory.flush();
    const before = counting.calls.texts;
    expect(await memory.reindex()).toBe(2);
    expect(counting.calls.texts - before).toBe(2);
    expect((await memory.recall("苹果", { mode: "bm25" })).map((e) => e.key)).toEqual(["b"]);
    expect((await memory.status()).missingEmbeddings).toBe(0);
  });
});

describe("binary-quantized pre-filter", () => {
  it("re-ranks exactly, so its top 10 matches the exact JavaScript scan on 600 entries", async () => {
    const entries = Array.from({ length: 600 }, (_, i) => ({
      key: `k${i}`,
      content: `note ${i % 37} about ${["apples", "trains", "rivers", "music", "budgets"][i % 5]} and item ${i}`,
    }));
    const vec = openTestMemory({ embeddings: createHashingEmbeddingProvider({ dimensions: 128 }) });
    const js = openTestMemory({
      embeddings: createHashingEmbeddingProvider({ dimensions: 128 }),
      loadVectorExtension: false,
    });
    for (const memory of [vec, js]) {
      await memory.import(entries);
      await memory.flush();
    }
    let overlap = 0;
    const queries = ["apples item 12", "music note 5", "rivers and trains", "budgets 30"];
    for (const query of queries) {
      const a = (await vec.recall(query, { mode: "embedding", limit: 10 })).map((e) => e.key);
      const b = new Set((await js.recall(query, { mode: "embedding", limit: 10 })).map((e) => e.key));
      overlap += a.filter((key) => b.has(key)).length;
    }
    expect(overlap / (queries.length * 10)).toBeGreaterThanOrEqual(0.9);
  });
});

describe("vector index across connections", () => {
  it("sees vectors another connection wrote after its first search", async () => {
    const path = join(tempDir(), "brain.db");
    const provider = createHashingEmbeddingProvider({ dimensions: 64 });
    const reader = SqliteMemory.open({ path, embeddings: provider });
    const writer = SqliteMemory.open({ path, embeddings: provider });
    await writer.store("a", "apples and pears");
    await writer.flush();
    expect((await reader.recall("apples", { mode: "embedding" })).map((e) => e.key)).toEqual(["a"]);
    await writer.store("b", "bicycles and trains");
    await writer.flush();
    await writer.close();
    expect(
      (await reader.recall("bicycles trains", { mode: "embedding", limit: 1 })).map((e) => e.key),
    ).toEqual(["b"]);
    await reader.close();
  });
});

describe("vector codes across connections", () => {
  const keysOf = (entries: { key: string }[]) => entries.map((e) => e.key);

  it("follows another connection's new, changed and deleted vectors", async () => {
    const path = join(tempDir(), "brain.db");
    const provider = createHashingEmbeddingProvider({ dimensions: 64 });
    const reader = SqliteMemory.open({
      path,
      embeddings: provider,
      settings: { ...DEFAULT_CONFIG.memory, hotCacheSize: 0 },
    });
    const writer = SqliteMemory.open({ path, embeddings: provider });
    onTestFinished(async () => {
      await reader.close();
      await writer.close();
    });
    await writer.import(
      Array.from({ length: 40 }, (_, i) => ({ key: `n${i}`, content: `note ${i} about gardens` })),
    );
    await writer.store("x", "apples and pears");
    await writer.flush();
    expect(keysOf(await reader.recall("apples pears", { mode: "embedding", limit: 1 }))).toEqual(["x"]);
    // Changed: the reader follows the new vector.
    await writer.store("x", "bicycles and trains");
    await writer.flush();
    expect(keysOf(await reader.recall("bicycles trains", { mode: "embedding", limit: 1 }))).toEqual(["x"]);
    // Deleted, a few then most: never returned.
    await writer.forget("x");
    expect(keysOf(await reader.recall("bicycles trains", { mode: "embedding", limit: 50 }))).not.toContain(
      "x",
    );
    await writer.forgetMany(Array.from({ length: 30 }, (_, i) => ({ key: `n${i}` })));
    const left = keysOf(await reader.recall("note about gardens", { mode: "embedding", limit: 50 }));
    expect(left.sort()).toEqual(Array.from({ length: 10 }, (_, i) => `n${30 + i}`).sort());
  });

  it("numbers every written code, so a reader reads only what changed", async () => {
    const path = join(tempDir(), "brain.db");
    const memory = openTestMemory({ path, embeddings: createHashingEmbeddingProvider({ dimensions: 64 }) });
    await memory.store("a", "first");
    await memory.store("b", "second");
    await memory.flush();
    await memory.store("a", "first, changed");
    await memory.flush();
    const db = new Database(path, { readonly: true });
    onTestFinished(() => {
      db.close();
    });
    const seqs = db.prepare("SELECT seq FROM memory_codes ORDER BY rid").pluck().all() as number[];
    expect(seqs[0]).toBeGreaterThan(seqs[1] as number);
    expect(new Set(seqs).size).toBe(2);
  });

  it("adds the seq column to an index written before it existed", async () => {
    const path = join(tempDir(), "brain.db");
    const provider = createHashingEmbeddingProvider({ dimensions: 64 });
    const first = SqliteMemory.open({ path, embeddings: provider });
    await first.store("a", "apples and pears");
    await first.flush();
    await first.close();
    const db = new Database(path);
    db.exec("DROP INDEX memory_codes_seq; ALTER TABLE memory_codes DROP COLUMN seq");
    db.close();
    const again = SqliteMemory.open({ path, embeddings: provider });
    onTestFinished(() => again.close());
    expect(keysOf(await again.recall("apples", { mode: "embedding" }))).toEqual(["a"]);
    await again.store("b", "bicycles and trains");
    await again.flush();
    expect(keysOf(await again.recall("bicycles trains", { mode: "embedding", limit: 1 }))).toEqual(["b"]);
  });
});

describe("backfill and close", () => {
  it("close() stops a running backfill before its next batch", async () => {
    const path = join(tempDir(), "brain.db");
    const seed = SqliteMemory.open({ path, embeddings: null });
    await seed.import(Array.from({ length: 100 }, (_, i) => ({ key: `k${i}`, content: `note ${i}` })));
    await seed.close();
    const inner = createHashingEmbeddingProvider({ dimensions: 16 });
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started: () => void = () => {};
    const firstCall = new Promise<void>((resolve) => {
      started = resolve;
    });
    let calls = 0;
    const slow = {
      id: inner.id,
      model: inner.model,
      dimensions: inner.dimensions,
      async embed(texts: readonly string[], options?: { purpose?: "query" | "document" }) {
        calls++;
        started();
        await gate;
        return inner.embed(texts, options);
      },
    };
    const memory = SqliteMemory.open({ path, embeddings: slow });
    const backfill = memory.backfillEmbeddings(10);
    await firstCall;
    const closing = memory.close();
    release();
    await closing;
    await expect(backfill).rejects.toSatisfy((e) => isMemoryError(e, "UNAVAILABLE"));
    expect(calls).toBe(1);
  });
});

describe("deferred batching", () => {
  it("sends one provider request for a run of awaited store() calls", async () => {
    const counting = countingProvider(createHashingEmbeddingProvider());
    const memory = openTestMemory({ embeddings: counting.provider });
    for (let i = 0; i < 20; i++) await memory.store(`k${i}`, `note number ${i} about the garden`);
    await memory.flush();
    expect(counting.calls.document).toBe(1);
    expect(counting.calls.texts).toBe(20);
    expect((await memory.status()).missingEmbeddings).toBe(0);
  });
});
