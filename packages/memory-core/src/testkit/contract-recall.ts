import { isMemoryError } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import {
  expectInvalid,
  keysOf,
  type MemoryContractHarness,
  manualClock,
  openContractMemory,
} from "./contract-harness.js";

/** Keyword recall (ranking, stemming, prefixes, hostile input, CJK), filters, decay and limits. */
export function describeRecallContract(harness: MemoryContractHarness): void {
  const open = (options = {}) => openContractMemory(harness, options);

  async function seeded() {
    const memory = await open();
    await memory.store("lang", "The user prefers TypeScript for backend services");
    await memory.store("pet", "The user has a dog named Rex who runs every morning");
    await memory.store("deploy", "Deployments happen on Fridays after the release review");
    await memory.store("quote", 'She said "ship it" (AND NOT later) near the end: col:x * ^');
    return memory;
  }

  describe("recall by keyword", () => {
    it("ranks entries containing the query terms first, scores in (0, 1)", async () => {
      const memory = await seeded();
      const hits = await memory.recall("which language does the user prefer for backend?", { mode: "bm25" });
      expect(hits[0]?.key).toBe("lang");
      expect(hits[0]?.score).toBeGreaterThan(0);
      expect(hits[0]?.score).toBeLessThan(1);
    });

    it("returns whole entries, as get does, from every stage", async () => {
      const memory = await open();
      await memory.import([
        {
          key: "full",
          content: "The standup moved to ten thirty",
          category: "core",
          sessionId: "s-1",
          importance: 0.9,
          source: { path: "notes/standup.md", startLine: 3, endLine: 4 },
        },
      ]);
      const stored = await memory.get("full");
      for (const query of ["standup moved", "", "standu"]) {
        const [hit] = await memory.recall(query, { mode: "bm25" });
        const { score, ...entry } = hit ?? {};
        expect(entry).toEqual(stored);
        if (query !== "") expect(score).toBeGreaterThan(0);
      }
    });

    it("explains each result's score when asked, and only then", async () => {
      const memory = await seeded();
      const [plain] = await memory.recall("user prefers typescript", { mode: "bm25" });
      expect(plain?.explain).toBeUndefined();
      const [hit] = await memory.recall("user prefers typescript", { mode: "bm25", explain: true });
      const why = hit?.explain;
      expect(hit?.key).toBe("lang");
      expect(why?.fusion).toBe("bm25");
      expect(why?.keyword?.rank).toBe(1);
      expect(why?.keyword?.terms).toEqual(["user", "prefers", "typescript"]);
      expect(why?.coverage).toBe(1);
      expect(why?.strength).toBe(1);
      expect(why?.recency).toBe(1);
      expect((why?.relevance ?? 0) * (why?.recency ?? 0)).toBe(hit?.score);
      expect(hit?.score).toBe(plain?.score);
    });

    it("matches word forms by stemming and widens to prefixes", async () => {
      const memory = await seeded();
      expect((await memory.recall("running", { mode: "bm25" })).map((h) => h.key)).toEqual(["pet"]);
      expect((await memory.recall("deplo", { mode: "bm25" })).map((h) => h.key)).toEqual(["deploy"]);
    });

    it("drops stop words so they do not pull unrelated entries in", async () => {
      const memory = await seeded();
      expect((await memory.recall("the user has a dog", { mode: "bm25" }))[0]?.key).toBe("pet");
    });

    it.each([
      ['"'],
      ["a AND"],
      ["NEAR("],
      ["col:x"],
      ["^"],
      ["((("],
      ["'; DROP TABLE memories; --"],
      ["ship\u0000it"],
      ["AND OR NOT"],
      ["-dog +rex"],
      ["key:lang"],
      ["it's & | ! <-> :* \\"],
    ])("treats hostile query %j as data", async (query) => {
      const memory = await seeded();
      expect(Array.isArray(await memory.recall(query, { mode: "bm25" }))).toBe(true);
      expect(Array.isArray(await memory.recall(query))).toBe(true);
      expect(await memory.count()).toBe(4);
    });

    it("finds text that looks like query syntax as plain words", async () => {
      const memory = await seeded();
      expect((await memory.recall('"ship it" NEAR(', { mode: "bm25" }))[0]?.key).toBe("quote");
    });

    it("rejects a query that is not a string", async () => {
      const memory = await seeded();
      const error = await memory.recall(42 as unknown as string).catch((e: unknown) => e);
      expect(isMemoryError(error, "INVALID_INPUT") && error.field).toBe("query");
    });

    it("falls back to substring match (LIKE) when ranked search finds nothing", async () => {
      const memory = await open();
      await memory.store("wifi", "The wifi password is hunter2_secret");
      expect((await memory.recall("unter2")).map((e) => e.key)).toEqual(["wifi"]);
      expect(await memory.recall("unter2", { mode: "bm25" })).toEqual([]);
      expect(await memory.recall("100%")).toEqual([]);
    });
  });

  describe("recall of Chinese, Japanese and Korean text", () => {
    it("finds words inside sentences without spaces, and a long query by its bigrams", async () => {
      const memory = await open();
      await memory.store("fruit", "我喜欢吃苹果");
      await memory.store("drink", "我每天早上喝咖啡");
      await memory.store("ja", "東京の天気は晴れです");
      await memory.store("ko", "저는 서울에서 일합니다");
      await memory.store("mixed", "项目使用TypeScript编写");
      const keys = async (q: string) => (await memory.recall(q, { mode: "bm25" })).map((e) => e.key);
      expect(await keys("苹果")).toEqual(["fruit"]);
      expect(await keys("喜欢吃苹果")).toEqual(["fruit"]);
      expect(await keys("苹")).toEqual(["fruit"]);
      expect((await keys("我喜欢吃什么水果"))[0]).toBe("fruit");
      expect(await keys("天気")).toEqual(["ja"]);
      expect(await keys("서울")).toEqual(["ko"]);
      expect(await keys("typescript")).toEqual(["mixed"]);
      expect(await keys("编写")).toEqual(["mixed"]);
      await memory.store("fruit", "我喜欢吃香蕉");
      expect(await keys("苹果")).toEqual([]);
      expect(await keys("香蕉")).toEqual(["fruit"]);
    });
  });

  describe("recall filters", () => {
    it('keeps namespaces apart and reads them all with "*"', async () => {
      const memory = await open();
      await memory.store("k", "project alpha uses postgres", { namespace: "tenant-a" });
      await memory.store("k", "project beta uses postgres", { namespace: "tenant-b" });
      await memory.store("k", "default project uses postgres");
      expect((await memory.recall("postgres")).map((e) => e.content)).toEqual([
        "default project uses postgres",
      ]);
      expect((await memory.recall("postgres", { namespace: "tenant-a" })).map((e) => e.namespace)).toEqual([
        "tenant-a",
      ]);
      const all = await memory.recall("postgres", { namespace: "*" });
      expect(all.map((e) => e.namespace).sort()).toEqual(["default", "tenant-a", "tenant-b"]);
    });

    it("filters by session and category", async () => {
      const memory = await open();
      await memory.store("a", "standup notes about the api", { sessionId: "s1", category: "daily" });
      await memory.store("b", "retro notes about the api", { sessionId: "s2", category: "conversation" });
      await memory.store("c", "api design principles", { category: "core" });
      expect((await memory.recall("api notes", { sessionId: "s1" })).map((e) => e.key)).toEqual(["a"]);
      expect(keysOf(await memory.recall("api", { categories: ["core", "daily"] }))).toEqual(["a", "c"]);
    });

    it("filters by since (inclusive) and until (exclusive)", async () => {
      const clock = manualClock("2026-01-01T00:00:00Z");
      const memory = await open({ now: clock.now });
      await memory.store("jan", "release planning");
      clock.set("2026-02-01T00:00:00Z");
      await memory.store("feb", "release retro");
      clock.set("2026-03-01T00:00:00Z");
      await memory.store("mar", "release party");
      const keys = async (o: object) => keysOf(await memory.recall("release", { limit: 10, ...o }));
      expect(await keys({ since: "2026-02-01T00:00:00Z" })).toEqual(["feb", "mar"]);
      expect(await keys({ until: new Date("2026-02-01T00:00:00Z") })).toEqual(["jan"]);
      expect(await keys({ since: "2026-01-15", until: "2026-02-15T00:00:00+00:00" })).toEqual(["feb"]);
    });

    it("hides superseded entries unless asked for", async () => {
      const memory = await open();
      await memory.import([
        { key: "old", content: "[SUPERSEDED by 'new'] the user likes coffee", supersededBy: "new" },
        { key: "new", content: "the user no longer likes coffee" },
      ]);
      expect((await memory.recall("coffee")).map((e) => e.key)).toEqual(["new"]);
      const all = await memory.recall("coffee", { includeSuperseded: true });
      expect(keysOf(all)).toEqual(["new", "old"]);
      expect(all.find((e) => e.key === "old")?.supersededBy).toBe("new");
      expect(await memory.recall("", { limit: 10 }).then(keysOf)).toEqual(["new"]);
    });

    it("applies minScore and limit; a huge limit is capped at recall_limit_max", async () => {
      const memory = await open({ settings: { recallLimitMax: 4 } });
      for (let i = 0; i < 10; i++) await memory.store(`k${i}`, `budget meeting number ${i}`);
      expect(await memory.recall("budget", { limit: 3 })).toHaveLength(3);
      expect(await memory.recall("budget", { limit: 10_000_000 })).toHaveLength(4);
      expect(await memory.recall("", { limit: 10_000_000 })).toHaveLength(4);
      // Every entry has the one query term: all score ≥ 0.5, none above 1.
      const scores = (await memory.recall("budget", { minScore: 0.5 })).map((e) => e.score as number);
      expect(scores).toHaveLength(4);
      for (const score of scores) expect(score).toBeGreaterThanOrEqual(0.5);
      expect(await memory.recall("budget", { minScore: 1.000001 })).toEqual([]);
    });

    it("rejects bad options naming them", async () => {
      const memory = await open();
      await memory.store("existing", "an entry");
      await expectInvalid(memory, "limit", () => memory.recall("entry", { limit: 0 }));
      await expectInvalid(memory, "since", () => memory.recall("entry", { since: "yesterday" }));
      await expectInvalid(memory, "until", () => memory.recall("entry", { until: new Date(Number.NaN) }));
      await expectInvalid(memory, "categories", () =>
        memory.recall("entry", { categories: "core" as unknown as string[] }),
      );
      await expectInvalid(memory, "mode", () => memory.recall("entry", { mode: "fuzzy" as "bm25" }));
    });
  });

  describe('recall of "" and "*"', () => {
    it("returns the most recent entries, newest first, unscored", async () => {
      const clock = manualClock();
      const memory = await open({ now: clock.now });
      for (const key of ["a", "b", "c"]) {
        await memory.store(key, `note ${key}`);
        clock.advance(1000);
      }
      await memory.store("a", "note a, edited");
      for (const query of ["", "*"]) {
        const recent = await memory.recall(query, { limit: 2 });
        expect(recent.map((e) => e.key)).toEqual(["a", "c"]);
        expect(recent[0]?.score).toBeUndefined();
      }
    });
  });

  describe("time decay", () => {
    it("with decay_floor 0, halves a non-core score every 7 days and leaves core alone", async () => {
      const clock = manualClock("2026-01-01T00:00:00Z");
      const memory = await open({ now: clock.now, settings: { decayFloor: 0 } });
      await memory.store("d", "weekly sync about the roadmap", { category: "daily" });
      await memory.store("c", "weekly sync about the roadmap", { category: "core" });
      const fresh = await memory.recall("roadmap", { mode: "bm25" });
      expect(fresh.find((e) => e.key === "c")?.score).toBe(fresh.find((e) => e.key === "d")?.score);
      clock.set("2026-01-08T00:00:00Z");
      await memory.store("other", "a write so that cached results are dropped");
      const later = await memory.recall("roadmap", { mode: "bm25" });
      expect(later.map((e) => e.key)).toEqual(["c", "d"]);
      expect((later[1]?.score as number) / (later[0]?.score as number)).toBeCloseTo(0.5, 9);
    });
  });

  describe("recall results", () => {
    it("are copies: mutating one does not change the next recall", async () => {
      const memory = await open();
      await memory.store("a", "the cat sleeps on the sofa");
      const first = await memory.recall("cat");
      (first[0] as { content: string }).content = "changed";
      expect((await memory.recall("cat"))[0]?.content).toBe("the cat sleeps on the sofa");
    });
  });
}
