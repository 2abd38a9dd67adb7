import type { MemoryEntry } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { createHashingEmbeddingProvider } from "../embedding/hashing-embedding-provider.js";
import { countingProvider, openTestMemory } from "./test-support/temp-memory.js";

function byKey(entries: readonly MemoryEntry[]): MemoryEntry[] {
  return [...entries].sort((a, b) => `${a.namespace}/${a.key}`.localeCompare(`${b.namespace}/${b.key}`));
}

describe("export → import", () => {
  it("round-trips entries made by store() (generated ids and times)", async () => {
    const source = openTestMemory({ now: () => new Date("2025-02-03T04:05:06.789Z") });
    await source.store("a", "First stored entry", { sessionId: "s1", namespace: "ns" });
    await source.store("b", "Second stored entry", { category: "conversation", importance: 0.25 });
    const exported = await source.export();

    const target = openTestMemory({ now: () => new Date("2030-01-01T00:00:00.000Z") });
    await target.import(exported);

    expect(byKey(await target.export())).toEqual(byKey(exported));
    expect(exported.every((e) => e.createdAt === "2025-02-03T04:05:06.789Z")).toBe(true);
  });

  it("includeEmbeddings exports the vectors, and the same provider keeps them on import", async () => {
    const source = openTestMemory({ embeddings: createHashingEmbeddingProvider({ dimensions: 32 }) });
    await source.store("garden", "Tomatoes grow best against the south wall");
    await source.store("kitchen", "The kettle is descaled every month");
    await source.flush();
    const exported = await source.export({ includeEmbeddings: true });
    expect(exported).toHaveLength(2);
    for (const entry of exported) {
      expect(entry.embedding).toBeInstanceOf(Float32Array);
      expect(entry.embedding).toHaveLength(32);
    }

    const counting = countingProvider(createHashingEmbeddingProvider({ dimensions: 32 }));
    const target = openTestMemory({ embeddings: counting.provider });
    await target.import([...exported, { key: "fresh", content: "An entry that came without a vector" }]);
    await target.flush();

    // Only the entry without a vector went to the provider.
    expect(counting.calls.document).toBe(1);
    expect(counting.calls.texts).toBe(1);
    const reexported = await target.export({ includeEmbeddings: true });
    for (const entry of exported) {
      const copy = reexported.find((e) => e.key === entry.key);
      expect(copy?.embedding).toEqual(entry.embedding);
    }
    expect(reexported.find((e) => e.key === "fresh")?.embedding).toHaveLength(32);
    const status = await target.status();
    expect(status.missingEmbeddings).toBe(0);
    expect(status.pendingEmbeddings).toBe(0);
  });

  it("imported vectors are searchable by the vector stage", async () => {
    const source = openTestMemory({ embeddings: createHashingEmbeddingProvider({ dimensions: 64 }) });
    await source.store("garden", "Tomatoes grow best against the south wall");
    await source.flush();
    const exported = await source.export({ includeEmbeddings: true });

    const target = openTestMemory({ embeddings: createHashingEmbeddingProvider({ dimensions: 64 }) });
    await target.import(exported);
    await target.flush();

    const found = await target.recall("tomatoes wall", { mode: "embedding" });
    expect(found.map((e) => e.key)).toEqual(["garden"]);
  });

  it("vectors of other dimensions are dropped on import and the entry is re-embedded", async () => {
    const source = openTestMemory({ embeddings: createHashingEmbeddingProvider({ dimensions: 16 }) });
    await source.store("garden", "Tomatoes grow best against the south wall");
    await source.flush();
    const exported = await source.export({ includeEmbeddings: true });

    const counting = countingProvider(createHashingEmbeddingProvider({ dimensions: 32 }));
    const target = openTestMemory({ embeddings: counting.provider });
    await target.import(exported);
    await target.flush();

    expect(counting.calls.document).toBe(1);
    const [entry] = await target.export({ includeEmbeddings: true });
    expect(entry?.embedding).toHaveLength(32);
  });
});

describe("import", () => {
  it("a re-import with new content updates the entry in place", async () => {
    const memory = openTestMemory();
    await memory.import([{ key: "k", content: "old", namespace: "ns", id: "id-k" }]);
    await memory.import([{ key: "k", content: "new", namespace: "ns" }]);

    expect(await memory.count()).toBe(1);
    const entry = await memory.get("k", { namespace: "ns" });
    expect(entry?.content).toBe("new");
    expect(entry?.id).toBe("id-k");
  });

  it("the same key in two namespaces is two entries", async () => {
    const memory = openTestMemory();
    await memory.import([
      { key: "k", content: "in a", namespace: "a" },
      { key: "k", content: "in b", namespace: "b" },
    ]);

    expect(await memory.count()).toBe(2);
    expect((await memory.get("k", { namespace: "a" }))?.content).toBe("in a");
    expect((await memory.get("k", { namespace: "b" }))?.content).toBe("in b");
  });
});

describe("validateEntries", () => {
  it("reports every invalid entry by index without writing", async () => {
    const { validateEntries } = await import("../facade/entry-write.js");
    const { DEFAULT_CONFIG } = await import("../config/config-schema.js");
    const problems = validateEntries(
      [
        { key: "ok", content: "fine" },
        { key: "", content: "x" },
        "nope",
        { key: "k", content: "c", importance: 7 },
      ],
      DEFAULT_CONFIG.memory,
    );
    expect(problems.map((p) => [p.index, p.error.field])).toEqual([
      [1, "key"],
      [2, "entry"],
      [3, "importance"],
    ]);
  });
});
