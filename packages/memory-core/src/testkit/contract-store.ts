import { describe, expect, it } from "vitest";
import { scoreImportance } from "../text/importance.js";
import {
  expectInvalid,
  keysOf,
  type MemoryContractHarness,
  manualClock,
  openContractMemory,
} from "./contract-harness.js";

/** store, get, list, count, forget, forgetMany, purges and topCoreMemories. */
export function describeStoreContract(harness: MemoryContractHarness): void {
  const open = (options = {}) => openContractMemory(harness, options);

  describe("store is an upsert by (namespace, key)", () => {
    it("keeps one row, the original id and createdAt, and moves updatedAt", async () => {
      const clock = manualClock();
      const memory = await open({ now: clock.now });
      const first = await memory.store("editor", "The user edits code in Vim");
      clock.advance(60_000);
      const second = await memory.store("editor", "The user edits code in Helix");

      expect(await memory.count()).toBe(1);
      expect(second.id).toBe(first.id);
      expect(first.createdAt).toBe("2025-01-01T00:00:00.000Z");
      expect(second).toMatchObject({
        createdAt: "2025-01-01T00:00:00.000Z",
        updatedAt: "2025-01-01T00:01:00.000Z",
        timestamp: "2025-01-01T00:01:00.000Z",
      });
      expect(await memory.get("editor")).toEqual(second);
    });

    it("returns the entry get() returns, with defaults and computed importance", async () => {
      const memory = await open({ now: () => new Date("2025-03-04T05:06:07.089Z") });
      const entry = await memory.store("rule", "You must always review the policy", { sessionId: "s1" });
      expect(entry).toEqual({
        id: entry.id,
        key: "rule",
        content: "You must always review the policy",
        category: "core",
        namespace: "default",
        sessionId: "s1",
        importance: scoreImportance("You must always review the policy", "core"),
        createdAt: "2025-03-04T05:06:07.089Z",
        updatedAt: "2025-03-04T05:06:07.089Z",
        timestamp: "2025-03-04T05:06:07.089Z",
      });
      expect(entry.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(await memory.get("rule")).toEqual(entry);
      const daily = await memory.store("d", "lunch", { category: "daily", importance: 0.25, namespace: "n" });
      expect(daily).toMatchObject({ category: "daily", importance: 0.25, namespace: "n" });
    });

    it("the old content is no longer found by keyword, the new one is", async () => {
      const memory = await open();
      await memory.store("editor", "The user edits code in Vim");
      expect(keysOf(await memory.recall("Vim"))).toEqual(["editor"]);
      await memory.store("editor", "The user edits code in Helix");
      expect(await memory.recall("Vim", { mode: "bm25" })).toEqual([]);
      expect(keysOf(await memory.recall("Helix"))).toEqual(["editor"]);
    });

    it("keeps multi-byte text intact", async () => {
      const memory = await open();
      const text = 'é😀 中文 — \u00a0tab\tquote\' "double" back\\slash';
      expect((await memory.store("k", text)).content).toBe(text);
      expect((await memory.get("k"))?.content).toBe(text);
    });
  });

  describe("store: bad input changes nothing", () => {
    it.each([
      ["key", () => ["", "content"]],
      ["key", () => [" \t ", "content"]],
      ["key", () => [42, "content"]],
      ["content", () => ["k", ""]],
      ["content", () => ["k", { text: "x" }]],
    ] as const)("%s", async (field, args) => {
      const memory = await open();
      await memory.store("existing", "An entry that must survive every bad call");
      const [key, content] = args() as unknown as [string, string];
      await expectInvalid(memory, field, () => memory.store(key, content));
    });

    it.each([
      ["importance", { importance: 1.5 }],
      ["importance", { importance: Number.NaN }],
      ["namespace", { namespace: "*" }],
      ["namespace", { namespace: "" }],
    ] as const)("option %s", async (field, options) => {
      const memory = await open();
      await memory.store("existing", "An entry");
      await expectInvalid(memory, field, () => memory.store("k", "content", options));
    });

    it("content over max_content_bytes counts bytes", async () => {
      const memory = await open({ settings: { maxContentBytes: 64 } });
      await expectInvalid(memory, "content", () => memory.store("k", `${"é".repeat(32)}a`));
      expect((await memory.store("two", "é".repeat(32))).content).toBe("é".repeat(32));
    });
  });

  describe("namespaces", () => {
    async function twoNamespaces() {
      const memory = await open();
      await memory.store("k", "Content of k in alpha", { namespace: "alpha" });
      await memory.store("k", "Content of k in beta", { namespace: "beta" });
      await memory.store("only-alpha", "Another alpha entry", { namespace: "alpha" });
      return memory;
    }

    it("get, list and count read their own namespace; * lists them all", async () => {
      const memory = await twoNamespaces();
      expect((await memory.get("k", { namespace: "beta" }))?.content).toBe("Content of k in beta");
      expect(await memory.get("k")).toBeNull();
      expect(keysOf(await memory.list({ namespace: "alpha" }))).toEqual(["k", "only-alpha"]);
      expect(keysOf(await memory.list({ namespace: "*" }))).toEqual(["k", "k", "only-alpha"]);
      expect(await memory.list()).toEqual([]);
      expect(await memory.count({ namespace: "alpha" })).toBe(2);
      expect(await memory.count()).toBe(3);
      expect(await memory.count({ namespace: "*" })).toBe(3);
    });

    it("forget removes only the entry in the given namespace", async () => {
      const memory = await twoNamespaces();
      expect(await memory.forget("k")).toBe(false);
      expect(await memory.forget("k", { namespace: "alpha" })).toBe(true);
      expect(await memory.forget("k", { namespace: "alpha" })).toBe(false);
      expect((await memory.get("k", { namespace: "beta" }))?.content).toBe("Content of k in beta");
      expect(await memory.recall("content", { namespace: "alpha" })).toEqual([]);
    });
  });

  describe("list", () => {
    it("newest first, with category, session, limit and offset", async () => {
      const clock = manualClock();
      const memory = await open({ now: clock.now });
      for (const [key, category, sessionId] of [
        ["a", "core", "s1"],
        ["b", "daily", "s1"],
        ["c", "daily", "s2"],
        ["d", "core", undefined],
      ] as const) {
        await memory.store(key, `note ${key}`, { category, sessionId });
        clock.advance(1000);
      }
      expect((await memory.list()).map((e) => e.key)).toEqual(["d", "c", "b", "a"]);
      expect((await memory.list({ category: "daily" })).map((e) => e.key)).toEqual(["c", "b"]);
      expect((await memory.list({ sessionId: "s1" })).map((e) => e.key)).toEqual(["b", "a"]);
      expect((await memory.list({ limit: 2, offset: 1 })).map((e) => e.key)).toEqual(["c", "b"]);
      expect(await memory.count({ category: "daily" })).toBe(2);
      await expectInvalid(memory, "offset", () => memory.list({ offset: -1 }));
      await expectInvalid(memory, "limit", () => memory.list({ limit: 0 }));
    });
  });

  describe("forgetMany and purges", () => {
    async function filled() {
      const memory = await open();
      await memory.store("a1", "Garden tomatoes in alpha", { namespace: "alpha", sessionId: "s1" });
      await memory.store("a2", "Garden beans in alpha", { namespace: "alpha", sessionId: "s2" });
      await memory.store("b1", "Garden peas in beta", { namespace: "beta", sessionId: "s1" });
      await memory.store("d1", "Garden herbs in default");
      return memory;
    }

    it("forgetMany deletes across namespaces and counts only entries that existed", async () => {
      const memory = await filled();
      const removed = await memory.forgetMany([
        { key: "a1", namespace: "alpha" },
        { key: "d1" },
        { key: "missing" },
      ]);
      expect(removed).toBe(2);
      expect(keysOf(await memory.list({ namespace: "*" }))).toEqual(["a2", "b1"]);
      expect(await memory.forgetMany([])).toBe(0);
    });

    it("forgetMany validates every reference before deleting any", async () => {
      const memory = await filled();
      await expectInvalid(memory, "refs[1].key", () => memory.forgetMany([{ key: "d1" }, { key: "" }]));
      await expectInvalid(memory, "refs[0].namespace", () =>
        memory.forgetMany([{ key: "d1", namespace: "*" }]),
      );
    });

    it("purgeNamespace removes one namespace and what recall found in it", async () => {
      const memory = await filled();
      expect(keysOf(await memory.recall("garden", { namespace: "*", limit: 10 }))).toEqual([
        "a1",
        "a2",
        "b1",
        "d1",
      ]);
      expect(await memory.purgeNamespace("alpha")).toBe(2);
      expect(keysOf(await memory.recall("garden", { namespace: "*", limit: 10 }))).toEqual(["b1", "d1"]);
      expect(await memory.purgeNamespace("alpha")).toBe(0);
    });

    it("purgeSession removes one session across namespaces", async () => {
      const memory = await filled();
      expect(await memory.purgeSession("s1")).toBe(2);
      expect(keysOf(await memory.list({ namespace: "*" }))).toEqual(["a2", "d1"]);
      expect(await memory.purgeSession("s1")).toBe(0);
    });
  });

  describe("topCoreMemories", () => {
    it("by importance, then recency; no other category, namespace or superseded entry", async () => {
      const clock = manualClock();
      const memory = await open({ now: clock.now });
      await memory.store("mid-old", "Core fact stored first", { importance: 0.5 });
      clock.advance(1000);
      await memory.store("high", "Core fact of high importance", { importance: 0.9 });
      clock.advance(1000);
      await memory.store("mid-new", "Core fact stored last", { importance: 0.5 });
      await memory.store("daily", "A daily note", { category: "daily", importance: 1 });
      await memory.store("other-ns", "Core fact elsewhere", { namespace: "elsewhere", importance: 1 });
      await memory.import([
        { key: "replaced", content: "Replaced fact", importance: 1, supersededBy: "high" },
      ]);

      expect((await memory.topCoreMemories(10)).map((e) => e.key)).toEqual(["high", "mid-new", "mid-old"]);
      expect((await memory.topCoreMemories(2)).map((e) => e.key)).toEqual(["high", "mid-new"]);
      expect((await memory.topCoreMemories(5, { namespace: "elsewhere" })).map((e) => e.key)).toEqual([
        "other-ns",
      ]);
    });
  });
}
