import type { MemoryEntry } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import {
  byNamespaceAndKey,
  expectInvalid,
  keysOf,
  type MemoryContractHarness,
  openContractMemory,
} from "./contract-harness.js";

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
    updatedAt: "2024-07-01T10:15:30.123Z",
  },
];

/** import (replace, skip, remove, validation) and export (round trip, filters). */
export function describeImportExportContract(harness: MemoryContractHarness): void {
  const open = (options = {}) => openContractMemory(harness, options);

  describe("export → import", () => {
    it("round-trips every field into a fresh store", async () => {
      const source = await open();
      expect(await source.import(FULL_ENTRIES)).toBe(4);
      const exported = await source.export();
      const target = await open();
      expect(await target.import(exported)).toBe(4);
      expect(byNamespaceAndKey(await target.export())).toEqual(byNamespaceAndKey(exported));
      expect(exported.find((e) => e.key === "editor")).toEqual({
        ...FULL_ENTRIES[0],
        timestamp: "2024-05-02T09:30:00.000Z",
      });
      expect(exported.find((e) => e.key === "editor_old")).toMatchObject({
        category: "core",
        namespace: "default",
        supersededBy: "editor",
      });
      expect(exported.find((e) => e.key === "notes.md#setup")?.source).toEqual({
        path: "notes.md",
        startLine: 3,
        endLine: 9,
      });
      expect(exported.find((e) => e.key === "standup")?.updatedAt).toBe("2024-07-01T10:15:30.123Z");
    });

    it("an export carries no vectors unless asked", async () => {
      const memory = await open();
      await memory.store("k", "content");
      expect(await memory.export()).toEqual([expect.not.objectContaining({ embedding: expect.anything() })]);
    });
  });

  describe("import", () => {
    it("accepts an async generator", async () => {
      const memory = await open();
      async function* generate() {
        for (let i = 1; i <= 3; i++) yield { key: `gen-${i}`, content: `Generated entry number ${i}` };
      }
      expect(await memory.import(generate())).toBe(3);
      expect((await memory.get("gen-2"))?.content).toBe("Generated entry number 2");
    });

    it("upserts by (namespace, key): the same entries again keep the count and the ids", async () => {
      const memory = await open();
      await memory.import(FULL_ENTRIES);
      const first = await memory.export();
      expect(await memory.import(FULL_ENTRIES)).toBe(4);
      expect(byNamespaceAndKey(await memory.export())).toEqual(byNamespaceAndKey(first));
      await memory.import([{ key: "editor", content: "new", id: "another-id" }]);
      expect(await memory.get("editor")).toMatchObject({ content: "new", id: FULL_ENTRIES[0]?.id });
    });

    it("a caller's id that another entry holds is replaced by a fresh one", async () => {
      const memory = await open();
      await memory.import([{ key: "a", content: "first", id: "shared-id" }]);
      await memory.import([{ key: "b", content: "second", id: "shared-id" }]);
      const [a, b] = [await memory.get("a"), await memory.get("b")];
      expect(a?.id).toBe("shared-id");
      expect(b?.id).not.toBe("shared-id");
      expect(b?.id).toMatch(/\S/);
    });

    it("the same key twice in one import: the last one wins", async () => {
      const memory = await open();
      expect(
        await memory.import([
          { key: "k", content: "one", id: "id-1" },
          { key: "k", content: "two", id: "id-2" },
        ]),
      ).toBe(2);
      expect(await memory.get("k")).toMatchObject({ content: "two", id: "id-1" });
      expect(await memory.count()).toBe(1);
    });

    it('onConflict "skip" inserts new keys and leaves existing ones exactly as they were', async () => {
      const memory = await open();
      const before = await memory.store("editor", "uses helix");
      const written = await memory.import(
        [
          { key: "editor", content: "uses vim", createdAt: "2020-01-01T00:00:00.000Z" },
          { key: "shell", content: "uses fish", createdAt: "2020-01-02T00:00:00.000Z" },
        ],
        { onConflict: "skip" },
      );
      expect(written).toBe(1);
      expect(await memory.get("editor")).toEqual(before);
      expect((await memory.get("shell"))?.createdAt).toBe("2020-01-02T00:00:00.000Z");
      expect(await memory.recall("vim", { mode: "bm25" })).toEqual([]);
    });

    it("remove deletes entries in the same transaction, before the writes", async () => {
      const memory = await open();
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
      expect(await memory.recall("old", { mode: "bm25" })).toEqual([]);
    });

    it("a bad entry anywhere writes and removes nothing, naming the entry and field", async () => {
      const memory = await open();
      await memory.store("keep", "kept");
      await expectInvalid(memory, "entries[1].content", () =>
        memory.import(
          [
            { key: "first", content: "valid" },
            { key: "second", content: "" },
          ],
          { remove: [{ key: "keep" }] },
        ),
      );
      async function* late() {
        yield { key: "one", content: "fine" };
        yield { key: "two", content: "bad importance", importance: 2 };
      }
      await expectInvalid(memory, "entries[1].importance", () => memory.import(late()));
      await expectInvalid(memory, "onConflict", () =>
        memory.import([{ key: "a", content: "b" }], { onConflict: "merge" as "skip" }),
      );
      await expectInvalid(memory, "remove[0].key", () =>
        memory.import([{ key: "a", content: "b" }], { remove: [{ key: "" }] }),
      );
      expect(keysOf(await memory.export())).toEqual(["keep"]);
    });
  });

  describe("export filters", () => {
    async function filled() {
      const memory = await open();
      await memory.import([
        {
          key: "jan",
          content: "January",
          namespace: "a",
          category: "daily",
          sessionId: "s1",
          updatedAt: "2024-01-15T00:00:00.000Z",
        },
        {
          key: "feb",
          content: "February",
          namespace: "a",
          category: "core",
          sessionId: "s2",
          updatedAt: "2024-02-01T00:00:00.000Z",
        },
        {
          key: "mar",
          content: "March",
          namespace: "b",
          category: "daily",
          sessionId: "s1",
          updatedAt: "2024-03-15T00:00:00.000Z",
        },
        {
          key: "apr",
          content: "April",
          namespace: "b",
          updatedAt: "2024-04-15T00:00:00.000Z",
          supersededBy: "mar",
        },
      ]);
      return memory;
    }

    it("everything (superseded included) or by namespace, category, session and dates", async () => {
      const memory = await filled();
      expect(keysOf(await memory.export())).toEqual(["apr", "feb", "jan", "mar"]);
      expect(keysOf(await memory.export({ namespace: "a" }))).toEqual(["feb", "jan"]);
      expect(keysOf(await memory.export({ category: "daily" }))).toEqual(["jan", "mar"]);
      expect(keysOf(await memory.export({ sessionId: "s1" }))).toEqual(["jan", "mar"]);
      expect(keysOf(await memory.export({ since: "2024-02-01T00:00:00Z" }))).toEqual(["apr", "feb", "mar"]);
      expect(keysOf(await memory.export({ until: new Date("2024-02-01T00:00:00Z") }))).toEqual(["jan"]);
      expect(await memory.export({ namespace: "default" })).toEqual([]);
    });

    it("exportStream gives export()'s entries for every filter", async () => {
      const memory = await filled();
      const filters = [
        {},
        { namespace: "a" },
        { category: "daily" },
        { sessionId: "s1" },
        { since: "2024-02-01T00:00:00Z" },
        { namespace: "default" },
      ];
      for (const filter of filters) {
        expect(byNamespaceAndKey(await collect(memory.exportStream(filter)))).toEqual(
          byNamespaceAndKey(await memory.export(filter)),
        );
      }
    });
  });

  describe("exportStream", () => {
    const many = (from: number, count: number, namespace = "default") =>
      Array.from({ length: count }, (_, i) => ({
        key: `k${String(from + i).padStart(5, "0")}`,
        content: `entry number ${from + i}`,
        namespace,
      }));

    it("reads page after page: 1 234 entries, vectors on request, other namespaces skipped", async () => {
      const memory = await open();
      await memory.import([...many(0, 700), ...many(0, 300, "other"), ...many(700, 534)]);
      const streamed = [];
      for await (const entry of memory.exportStream({ namespace: "default" })) streamed.push(entry);
      expect(streamed.map((e) => e.key)).toEqual(many(0, 1234).map((e) => e.key));
      expect(byNamespaceAndKey(streamed)).toEqual(
        byNamespaceAndKey(await memory.export({ namespace: "default" })),
      );
      expect(streamed.some((e) => e.embedding !== undefined)).toBe(false);
      expect(await collect(memory.exportStream({ namespace: "nobody" }))).toEqual([]);
    });

    it("lets writes happen between pages and yields no entry twice", async () => {
      const memory = await open();
      await memory.import(many(0, 1200));
      const seen: string[] = [];
      for await (const entry of memory.exportStream()) {
        seen.push(entry.key);
        if (seen.length === 10) {
          await memory.store("k00900", "changed while streaming");
          await memory.store("late", "stored while streaming");
          await memory.forget("k01100");
        }
      }
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen).toContain("late");
      expect(seen).not.toContain("k01100");
      expect(seen.length).toBe(1200);
    });

    it("refuses bad filters when called, naming the field", async () => {
      const memory = await open();
      await expectInvalid(memory, "category", async () => memory.exportStream({ category: "" }));
      await expectInvalid(memory, "since", async () => memory.exportStream({ since: "yesterday" }));
      await expectInvalid(memory, "includeEmbeddings", async () =>
        memory.exportStream({ includeEmbeddings: "yes" as unknown as boolean }),
      );
    });
  });
}

async function collect(entries: AsyncIterable<MemoryEntry>): Promise<MemoryEntry[]> {
  const all: MemoryEntry[] = [];
  for await (const entry of entries) all.push(entry);
  return all;
}
