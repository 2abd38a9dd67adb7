import { isMemoryError } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { createHashingEmbeddingProvider } from "../embedding/hashing-embedding-provider.js";
import { countingProvider, openTestMemory } from "./test-support/temp-memory.js";

describe("import with onConflict: skip", () => {
  it("inserts new keys and leaves existing ones exactly as they were", async () => {
    const memory = openTestMemory();
    await memory.store("editor", "uses helix", { category: "core" });
    const before = await memory.get("editor");

    const written = await memory.import(
      [
        { key: "editor", content: "uses vim", createdAt: "2020-01-01T00:00:00.000Z" },
        { key: "shell", content: "uses fish", createdAt: "2020-01-02T00:00:00.000Z" },
      ],
      { onConflict: "skip" },
    );

    expect(written).toBe(1);
    expect(await memory.get("editor")).toEqual(before);
    const shell = await memory.get("shell");
    expect(shell?.content).toBe("uses fish");
    expect(shell?.createdAt).toBe("2020-01-02T00:00:00.000Z");
    expect((await memory.recall("vim", { mode: "bm25" })).map((e) => e.key)).toEqual([]);
  });

  it("replaces by default", async () => {
    const memory = openTestMemory();
    await memory.store("editor", "uses helix");
    expect(await memory.import([{ key: "editor", content: "uses vim" }])).toBe(1);
    expect((await memory.get("editor"))?.content).toBe("uses vim");
  });

  it("rejects an unknown onConflict value and writes nothing", async () => {
    const memory = openTestMemory();
    const error = await memory
      .import([{ key: "a", content: "b" }], { onConflict: "merge" as "skip" })
      .catch((e: unknown) => e);
    expect(isMemoryError(error, "INVALID_INPUT") && error.field).toBe("onConflict");
    expect(await memory.count()).toBe(0);
  });
});

describe("forgetMany", () => {
  it("deletes the listed entries across namespaces and counts only those that existed", async () => {
    const memory = openTestMemory();
    await memory.store("a", "alpha note");
    await memory.store("b", "beta note");
    await memory.store("a", "alpha in tenant", { namespace: "tenant" });
    await memory.store("c", "gamma note");

    const removed = await memory.forgetMany([
      { key: "a" },
      { key: "a", namespace: "tenant" },
      { key: "missing" },
    ]);

    expect(removed).toBe(2);
    expect((await memory.export()).map((e) => `${e.namespace}/${e.key}`).sort()).toEqual([
      "default/b",
      "default/c",
    ]);
    expect((await memory.recall("alpha", { mode: "bm25", namespace: "*" })).length).toBe(0);
  });

  it("validates every reference before deleting any", async () => {
    const memory = openTestMemory();
    await memory.store("a", "alpha");
    const error = await memory.forgetMany([{ key: "a" }, { key: "" }]).catch((e: unknown) => e);
    expect(isMemoryError(error, "INVALID_INPUT") && error.field).toBe("refs[1].key");
    expect(await memory.count()).toBe(1);
  });

  it("returns 0 for an empty list", async () => {
    const memory = openTestMemory();
    await memory.store("a", "alpha");
    expect(await memory.forgetMany([])).toBe(0);
    expect(await memory.count()).toBe(1);
  });
});

describe("embed", () => {
  it("is null in keyword-only mode", async () => {
    const memory = openTestMemory();
    expect(await memory.embed(["anything"])).toBeNull();
  });

  it("shares the embedding cache with stored entries, so a document vector is fetched once", async () => {
    const counting = countingProvider(createHashingEmbeddingProvider({ dimensions: 64 }));
    const memory = openTestMemory({
      embeddings: counting.provider,
      settings: { deferEmbedding: false },
    });
    const [vector] = (await memory.embed(["the user prefers tabs"])) as Float32Array[];
    expect(vector?.length).toBe(64);
    expect(counting.calls.document).toBe(1);

    await memory.store("indent", "the user prefers tabs");
    const [stored] = await memory.recall("prefers tabs", { withEmbeddings: true, mode: "embedding" });
    expect(counting.calls.document).toBe(1);
    expect(Array.from(stored?.embedding ?? [])).toEqual(Array.from(vector as Float32Array));
  });

  it("does not cache query vectors", async () => {
    const counting = countingProvider(createHashingEmbeddingProvider({ dimensions: 32 }));
    const memory = openTestMemory({ embeddings: counting.provider });
    await memory.embed(["a question"], { purpose: "query" });
    await memory.embed(["a question"], { purpose: "query" });
    expect(counting.calls.query).toBe(2);
  });
});

describe("import with remove", () => {
  it("replaces a set of entries in one transaction", async () => {
    const memory = openTestMemory();
    await memory.import([
      { key: "notes.md#0", content: "old chunk zero" },
      { key: "notes.md#1", content: "old chunk one" },
      { key: "other", content: "unrelated" },
    ]);
    const written = await memory.import([{ key: "notes.md#0", content: "new chunk zero" }], {
      remove: [{ key: "notes.md#0" }, { key: "notes.md#1" }],
    });
    expect(written).toBe(1);
    expect((await memory.export()).map((e) => `${e.key}=${e.content}`).sort()).toEqual([
      "notes.md#0=new chunk zero",
      "other=unrelated",
    ]);
    expect((await memory.recall("old", { mode: "bm25" })).length).toBe(0);
  });

  it("removes nothing when an entry is invalid", async () => {
    const memory = openTestMemory();
    await memory.store("keep", "kept");
    const error = await memory
      .import([{ key: "", content: "bad" }], { remove: [{ key: "keep" }] })
      .catch((e: unknown) => e);
    expect(isMemoryError(error, "INVALID_INPUT")).toBe(true);
    expect(await memory.get("keep")).not.toBeNull();
  });
});
