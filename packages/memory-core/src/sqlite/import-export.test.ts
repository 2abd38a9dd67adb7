import type { MemoryEntry } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { createHashingEmbeddingProvider } from "../embedding/hashing-embedding-provider.js";
import { countingProvider, openTestMemory } from "./test-support/temp-memory.js";

/** Entries exercising every field an export carries. */
const FULL_ENTRIES: Array<Partial<MemoryEntry>> = [
  {
    id: "6f1c2a3e-0000-4000-8000-000000000001",
    key: "editor",
    content: "The user edits code in Helix",
    category: "core",
    namespace: "default",
    sessionId: "session-a",
    importance: 0.9,
    createdAt: "2024-05-01T08:00:00.000Z",
    updatedAt: "2024-05-02T09:30:00.000Z",
  },
  {
    id: "6f1c2a3e-0000-4000-8000-000000000002",
    key: "editor_old",
    content: "The user edits code in Vim",
    category: "core",
    namespace: "default",
    importance: 0.4,
    supersededBy: "editor",
    createdAt: "2024-04-01T08:00:00.000Z",
    updatedAt: "2024-05-02T09:30:00.000Z",
  },
  {
    id: "6f1c2a3e-0000-4000-8000-000000000003",
    key: "notes.md#setup",
    content: "Setup: run pnpm install, then pnpm build",
    category: "workspace-notes",
    namespace: "tenant-b",
    importance: 0.55,
    createdAt: "2024-06-10T00:00:00.000Z",
    updatedAt: "2024-06-11T00:00:00.000Z",
    source: { path: "notes.md", startLine: 3, endLine: 9 },
  },
  {
    id: "6f1c2a3e-0000-4000-8000-000000000004",
    key: "standup",
    content: "Standup moved to 10:15",
    category: "daily",
    namespace: "tenant-b",
    sessionId: "session-b",
    importance: 0.3,
    createdAt: "2024-07-01T10:00:00.000Z",
    updatedAt: "2024-07-01T10:00:00.000Z",
  },
];

function byKey(entries: readonly MemoryEntry[]): MemoryEntry[] {
  return [...entries].sort((a, b) => `${a.namespace}/${a.key}`.localeCompare(`${b.namespace}/${b.key}`));
}

function keysOf(entries: readonly MemoryEntry[]): string[] {
  return entries.map((e) => e.key).sort();
}

describe("export → import", () => {
  it("round-trips every field into a fresh store", async () => {
    const source = openTestMemory();
    expect(await source.import(FULL_ENTRIES)).toBe(FULL_ENTRIES.length);
    const exported = await source.export();
    expect(exported).toHaveLength(FULL_ENTRIES.length);

    const target = openTestMemory();
    expect(await target.import(exported)).toBe(exported.length);
    const reexported = await target.export();

    expect(byKey(reexported)).toEqual(byKey(exported));
    const helix = reexported.find((e) => e.key === "editor");
    expect(helix).toEqual({
      id: "6f1c2a3e-0000-4000-8000-000000000001",
      key: "editor",
      content: "The user edits code in Helix",
      category: "core",
      namespace: "default",
      sessionId: "session-a",
      importance: 0.9,
      createdAt: "2024-05-01T08:00:00.000Z",
      updatedAt: "2024-05-02T09:30:00.000Z",
      timestamp: "2024-05-02T09:30:00.000Z",
    });
    expect(reexported.find((e) => e.key === "editor_old")?.supersededBy).toBe("editor");
    expect(reexported.find((e) => e.key === "notes.md#setup")).toMatchObject({
      namespace: "tenant-b",
      category: "workspace-notes",
      source: { path: "notes.md", startLine: 3, endLine: 9 },
    });
  });

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

  it("without includeEmbeddings an export carries no vectors", async () => {
    const memory = openTestMemory({ embeddings: createHashingEmbeddingProvider({ dimensions: 32 }) });
    await memory.store("k", "Content with a vector");
    await memory.flush();

    const [entry] = await memory.export();
    expect(entry?.key).toBe("k");
    expect(entry).not.toHaveProperty("embedding");
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
  it("accepts an async generator", async () => {
    const memory = openTestMemory();
    async function* generate() {
      for (let i = 1; i <= 3; i++) {
        await Promise.resolve();
        yield { key: `gen-${i}`, content: `Generated entry number ${i}` };
      }
    }

    expect(await memory.import(generate())).toBe(3);
    expect(await memory.count()).toBe(3);
    expect((await memory.get("gen-2"))?.content).toBe("Generated entry number 2");
  });

  it("upserts by (namespace, key): importing the same entries again keeps the count", async () => {
    const memory = openTestMemory();
    await memory.import(FULL_ENTRIES);
    const first = await memory.export();
    expect(await memory.import(FULL_ENTRIES)).toBe(FULL_ENTRIES.length);

    expect(await memory.count()).toBe(FULL_ENTRIES.length);
    expect(byKey(await memory.export())).toEqual(byKey(first));
  });

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

describe("export filters", () => {
  async function filled() {
    const memory = openTestMemory();
    await memory.import([
      {
        key: "jan",
        content: "January note",
        namespace: "a",
        category: "daily",
        sessionId: "s1",
        updatedAt: "2024-01-15T00:00:00.000Z",
      },
      {
        key: "feb",
        content: "February note",
        namespace: "a",
        category: "core",
        sessionId: "s2",
        updatedAt: "2024-02-01T00:00:00.000Z",
      },
      {
        key: "mar",
        content: "March note",
        namespace: "b",
        category: "daily",
        sessionId: "s1",
        updatedAt: "2024-03-15T00:00:00.000Z",
      },
      {
        key: "apr",
        content: "April note",
        namespace: "b",
        category: "core",
        updatedAt: "2024-04-15T00:00:00.000Z",
        supersededBy: "mar",
      },
    ]);
    return memory;
  }

  it("no filter exports every namespace, superseded entries included", async () => {
    const memory = await filled();
    expect(keysOf(await memory.export())).toEqual(["apr", "feb", "jan", "mar"]);
  });

  it("by namespace", async () => {
    const memory = await filled();
    expect(keysOf(await memory.export({ namespace: "a" }))).toEqual(["feb", "jan"]);
    expect(keysOf(await memory.export({ namespace: "b" }))).toEqual(["apr", "mar"]);
    expect(await memory.export({ namespace: "default" })).toEqual([]);
  });

  it("by category", async () => {
    const memory = await filled();
    expect(keysOf(await memory.export({ category: "daily" }))).toEqual(["jan", "mar"]);
    expect(keysOf(await memory.export({ category: "core", namespace: "b" }))).toEqual(["apr"]);
  });

  it("by sessionId", async () => {
    const memory = await filled();
    expect(keysOf(await memory.export({ sessionId: "s1" }))).toEqual(["jan", "mar"]);
    expect(keysOf(await memory.export({ sessionId: "s2" }))).toEqual(["feb"]);
  });

  it("since is inclusive, until exclusive (strings or Dates)", async () => {
    const memory = await filled();
    expect(keysOf(await memory.export({ since: "2024-02-01T00:00:00Z" }))).toEqual(["apr", "feb", "mar"]);
    expect(keysOf(await memory.export({ until: "2024-02-01T00:00:00Z" }))).toEqual(["jan"]);
    expect(
      keysOf(
        await memory.export({
          since: new Date("2024-02-01T00:00:00Z"),
          until: new Date("2024-04-01T00:00:00Z"),
        }),
      ),
    ).toEqual(["feb", "mar"]);
  });
});

describe("validateEntries", () => {
  it("reports every invalid entry by index without writing", async () => {
    const { validateEntries } = await import("./entry-input.js");
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
      [1, "entries[1].key"],
      [2, "entries[2]"],
      [3, "entries[3].importance"],
    ]);
  });
});
