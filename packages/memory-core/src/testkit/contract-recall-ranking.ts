import type { Memory, MemoryEntry, SearchMode } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { createHashingEmbeddingProvider } from "../embedding/hashing-embedding-provider.js";
import {
  expectInvalid,
  type MemoryContractHarness,
  manualClock,
  openContractMemory,
} from "./contract-harness.js";

const DAY = 86_400_000;
const NOW = "2025-06-01T12:00:00.000Z";
const daysAgo = (days: number) => new Date(Date.parse(NOW) - days * DAY).toISOString();

const MODES: readonly SearchMode[] = ["bm25", "embedding", "hybrid"];

/** A conversation turn of `sessionId`, written at 10:0`minute` on 2025-05-30. */
const turn = (key: string, content: string, minute: number, sessionId = "s1") => ({
  key,
  content,
  category: "conversation",
  sessionId,
  createdAt: `2025-05-30T10:0${minute}:00.000Z`,
});

/**
 * Bounded recency, calibrated scores and context-aware indexing: what recall promises whatever the
 * storage engine (issue 16). Stores are fresh, and `now` is fixed, so ages are exact.
 */
export function describeRecallRankingContract(harness: MemoryContractHarness): void {
  const open = (mode: SearchMode, settings: Record<string, unknown> = {}) =>
    openContractMemory(harness, {
      now: manualClock(NOW).now,
      embeddings: mode === "bm25" ? null : createHashingEmbeddingProvider({ dimensions: 256 }),
      settings,
    });

  async function put(memory: Memory, key: string, content: string, category: string, age: number) {
    await memory.import([{ key, content, category, createdAt: daysAgo(age), updatedAt: daysAgo(age) }]);
    await memory.flush();
  }

  const scoreOf = (entries: readonly MemoryEntry[], key: string) =>
    entries.find((e) => e.key === key)?.score ?? Number.NaN;

  describe("bounded recency", () => {
    it.each(["bm25", "hybrid"] as const)("a strong old match beats a weak new one (%s)", async (mode) => {
      const memory = await open(mode);
      await put(memory, "old", "The weekly standup meeting moved to 9:30 on Tuesdays", "daily", 60);
      await put(memory, "new", "I had a long meeting with the landlord today", "daily", 1);
      const found = await memory.recall("when is the weekly standup meeting", { limit: 2, mode });
      expect(found.map((e) => e.key)).toEqual(["old", "new"]);
    });

    it.each(["bm25", "hybrid"] as const)("recency decides a near-tie: the update wins (%s)", async (mode) => {
      const memory = await open(mode);
      await put(memory, "before", "The weekly standup meeting is at 10:00 on Mondays", "conversation", 40);
      await put(memory, "after", "The weekly standup meeting is at 9:30 on Tuesdays", "conversation", 2);
      const found = await memory.recall("weekly standup meeting", { limit: 2, mode });
      expect(found.map((e) => e.key)).toEqual(["after", "before"]);
      // The old entry keeps at least the floor (0.95) of what it would score fresh.
      expect(scoreOf(found, "before") / scoreOf(found, "after")).toBeGreaterThan(0.95);
    });

    it("a 23-day-old daily note with every term beats a one-term core line", async () => {
      const memory = await open("bm25");
      await put(memory, "MEMORY.md#0", "Deploy checklist: run the migrations first", "core", 200);
      await put(
        memory,
        "memory/2025-05-09.md#0",
        "Decided the staging deploy uses blue green rollout with canary checks",
        "daily",
        23,
      );
      const found = await memory.recall("staging deploy blue green canary", { limit: 2 });
      expect(found.map((e) => e.key)).toEqual(["memory/2025-05-09.md#0", "MEMORY.md#0"]);
    });

    it("decay_floor 0 gives seed 000's formula: a 7-day-old entry keeps half its score", async () => {
      const memory = await open("bm25", { decayFloor: 0 });
      await put(memory, "fresh", "orchid watering schedule", "daily", 0);
      await put(memory, "week", "orchid watering schedule", "daily", 7);
      const found = await memory.recall("orchid watering schedule", { limit: 2 });
      expect(scoreOf(found, "week") / scoreOf(found, "fresh")).toBeCloseTo(0.5, 6);
    });

    it("by default a 7-day-old entry keeps 0.975 of its score and core keeps all of it", async () => {
      const memory = await open("bm25");
      await put(memory, "fresh", "orchid watering schedule", "daily", 0);
      await put(memory, "week", "orchid watering schedule", "daily", 7);
      await put(memory, "core", "orchid watering schedule", "core", 365);
      const found = await memory.recall("orchid watering schedule", { limit: 3 });
      expect(scoreOf(found, "week") / scoreOf(found, "fresh")).toBeCloseTo(0.975, 6);
      expect(scoreOf(found, "core")).toBeCloseTo(scoreOf(found, "fresh"), 6);
    });

    it("refuses a `now` that is not a time, naming it", async () => {
      const memory = await open("bm25");
      await expectInvalid(memory, "now", () => memory.recall("orchid", { now: "next tuesday" }));
      await expectInvalid(memory, "now", () => memory.recall("orchid", { now: 5 as unknown as string }));
    });

    it("measures ages from the recall's `now` option", async () => {
      const memory = await open("bm25", { decayFloor: 0 });
      await put(memory, "a", "orchid watering schedule", "daily", 14);
      const asOfThen = await memory.recall("orchid watering schedule", { now: daysAgo(14) });
      const today = await memory.recall("orchid watering schedule");
      expect(scoreOf(today, "a") / scoreOf(asOfThen, "a")).toBeCloseTo(0.25, 6);
    });
  });

  describe("calibrated scores", () => {
    it.each(MODES)("an exact match scores ≥ 0.5 in a 2-entry store of common terms (%s)", async (mode) => {
      const memory = await open(mode);
      await put(memory, "a", "project status update", "core", 0);
      await put(memory, "b", "project status update notes", "core", 0);
      const found = await memory.recall("project status update", { mode });
      expect(found.map((e) => e.key).sort()).toEqual(["a", "b"]);
      for (const entry of found) {
        expect(entry.score).toBeGreaterThanOrEqual(0.5);
        expect(entry.score).toBeLessThanOrEqual(1);
      }
    });

    it.each(MODES)("a partial match scores below a full one, all in (0, 1] (%s)", async (mode) => {
      const memory = await open(mode);
      await put(memory, "full", "The invoice for the garden fence arrived", "core", 0);
      await put(memory, "partial", "The fence needs paint", "core", 0);
      await put(memory, "other", "Lunch with Sam on Friday", "core", 0);
      const found = await memory.recall("garden fence invoice", { mode, limit: 5 });
      expect(found[0]?.key).toBe("full");
      expect(scoreOf(found, "full")).toBeGreaterThanOrEqual(0.5);
      expect(scoreOf(found, "partial")).toBeLessThan(scoreOf(found, "full"));
      for (const entry of found) {
        expect(entry.score).toBeGreaterThan(0);
        expect(entry.score).toBeLessThanOrEqual(1);
      }
    });

    it.each(MODES)("minScore filters on the calibrated score (%s)", async (mode) => {
      const memory = await open(mode);
      await put(memory, "full", "The invoice for the garden fence arrived", "core", 0);
      await put(memory, "partial", "The fence needs paint", "core", 0);
      const all = await memory.recall("garden fence invoice", { mode, limit: 5 });
      const threshold = scoreOf(all, "full");
      const kept = await memory.recall("garden fence invoice", { mode, limit: 5, minScore: threshold });
      expect(kept.map((e) => e.key)).toEqual(["full"]);
      expect(await memory.recall("garden fence invoice", { mode, minScore: 1.01 })).toEqual([]);
    });
  });

  describe("first-person questions", () => {
    it("rank what the user said of themselves above an answer about the same thing", async () => {
      const memory = await open("bm25");
      await memory.import([
        { key: "said", content: "I set the launch deadline to March 1 for my team" },
        {
          key: "answer",
          content:
            "A launch deadline should leave time for testing: teams often set the launch deadline two weeks after a feature freeze, and set the freeze first",
        },
      ]);
      const found = await memory.recall("what launch deadline did I set?", { limit: 2 });
      expect(found.map((e) => e.key)).toEqual(["said", "answer"]);
      // Asked in the third person, the question has no first-person word to favour either.
      const third = await memory.recall("what launch deadline was set?", { limit: 2 });
      expect(third.map((e) => e.key)).toEqual(["answer", "said"]);
    });
  });

  describe("session neighbours", () => {
    it("a question lends its whole score to the reply after it, half to the turn before", async () => {
      const memory = await open("bm25");
      await memory.import([
        turn("before", "Maria: Sunday was lovely at the lake.", 1),
        turn("q", "Maria: How often do you work out with your family?", 2),
        turn("a", "John: Three times a week, it keeps us on track.", 3),
      ]);
      const found = await memory.recall("work out family often", { limit: 5, explain: true });
      const keyword = (key: string) => found.find((e) => e.key === key)?.explain?.keyword;
      const q = keyword("q");
      const own = (q?.score ?? Number.NaN) - (q?.neighbour ?? Number.NaN);
      expect(own).toBeGreaterThan(0);
      expect((keyword("a")?.neighbour ?? 0) / own).toBeCloseTo(1, 9);
      expect((keyword("before")?.neighbour ?? 0) / own).toBeCloseTo(0.5, 9);
    });
  });

  describe("context-aware indexing", () => {
    it("finds an entry by the date it was written, in the forms people ask", async () => {
      const memory = await open("bm25");
      await memory.import([
        { key: "may", content: "Went to the pottery class", createdAt: "2023-05-08T13:56:00Z" },
        { key: "june", content: "Went to the climbing gym", createdAt: "2024-06-20T09:00:00Z" },
      ]);
      for (const query of ["2023-05-08", "what did I do on 8 May 2023", "what happened in 2023"]) {
        const found = await memory.recall(query, { limit: 1 });
        expect(
          found.map((e) => e.key),
          query,
        ).toEqual(["may"]);
      }
      // The context is indexed, never stored: the content is what was written.
      expect((await memory.get("may"))?.content).toBe("Went to the pottery class");
    });

    it("counts a question's date in the coverage of the entries written that day", async () => {
      const memory = await open("bm25");
      const dinner = (key: string, createdAt: string) => ({
        key,
        content: "Audrey: we had pasta for dinner",
        category: "conversation",
        createdAt,
      });
      await memory.import([dinner("oct24", "2023-10-24T19:00:00Z"), dinner("nov24", "2023-11-24T19:00:00Z")]);
      const found = await memory.recall("what did audrey eat for dinner on october 24, 2023", {
        limit: 2,
        explain: true,
        now: "2023-12-01T00:00:00Z",
      });
      // Terms audrey, eat, dinner, october, 24, 2023: "eat" is in neither; the dates hold the rest.
      expect(found.map((e) => [e.key, e.explain?.coverage])).toEqual([
        ["oct24", 5 / 6],
        ["nov24", 4 / 6],
      ]);
      // A number alone names no date: the day of the month does not count.
      const [top] = await memory.recall("audrey dinner 24", { limit: 1, explain: true });
      expect(top?.explain?.coverage).toBeCloseTo(2 / 3, 12);
    });

    it("finds an entry by the context its writer gives, which is kept apart from its content", async () => {
      const memory = await open("bm25");
      await memory.store("chunk", "Use PostgreSQL 16 with pgvector.", {
        context: "Project Falcon > Decisions > Database",
      });
      await memory.store("other", "Use tabs in the Makefile.");
      expect((await memory.recall("falcon database")).map((e) => e.key)).toEqual(["chunk"]);
      const entry = await memory.get("chunk");
      expect(entry?.content).toBe("Use PostgreSQL 16 with pgvector.");
      expect(entry?.context).toBe("Project Falcon > Decisions > Database");
      // An update replaces it; the old words no longer find the entry.
      await memory.store("chunk", "Use PostgreSQL 16 with pgvector.", { context: "Project Heron" });
      expect(await memory.recall("falcon database")).toEqual([]);
      expect((await memory.recall("heron")).map((e) => e.key)).toEqual(["chunk"]);
      // Export and import carry it.
      const exported = await memory.export();
      const copy = await open("bm25");
      await copy.import(exported);
      expect((await copy.get("chunk"))?.context).toBe("Project Heron");
      expect((await copy.recall("heron")).map((e) => e.key)).toEqual(["chunk"]);
      await expectInvalid(memory, "context", () =>
        memory.store("bad", "text", { context: 42 as unknown as string }),
      );
    });

    it("finds a turn by the words of the turn before it, and forgets them with it", async () => {
      // Neighbour lending off: only the indexed context can find the answer.
      const memory = await open("bm25", { sessionContextWeight: 0 });
      // Written out of order: the question arrives after the answer it precedes.
      await memory.import([turn("a", "Caroline: Bouldering, twice a week.", 2)]);
      await memory.import([turn("q", "Melanie: Which sport did you pick up this spring?", 1)]);
      const keys = async (query: string) => (await memory.recall(query, { limit: 5 })).map((e) => e.key);
      expect(await keys("which sport this spring")).toEqual(["q", "a"]);
      expect(await memory.forget("q")).toBe(true);
      expect(await keys("which sport this spring")).toEqual([]);
    });

    it("indexes a turn stored on its own with the turn before it, and re-indexes the turn after a rewritten one", async () => {
      const memory = await open("bm25", { sessionContextWeight: 0 });
      const inSession = { category: "conversation", sessionId: "s1" } as const;
      const keys = async (query: string) => (await memory.recall(query, { limit: 5 })).map((e) => e.key);
      await memory.store("q", "Melanie: Which sport did you pick up this spring?", inSession);
      await memory.store("a", "Caroline: Bouldering, twice a week.", inSession);
      expect(await keys("which sport this spring")).toEqual(["q", "a"]);
      // Rewritten in place: the answer is found by the new question's words, no longer the old.
      await memory.store("q", "Melanie: Which climbing gym do you go to?", inSession);
      expect(await keys("climbing gym")).toEqual(["q", "a"]);
      expect(await keys("which sport this spring")).toEqual([]);
      // Stored into another session: the answer no longer follows it.
      await memory.store("q", "Melanie: Which climbing gym do you go to?", { ...inSession, sessionId: "s2" });
      expect(await keys("climbing gym")).toEqual(["q"]);
    });

    it("re-indexes the turn that followed a turn moved to another session", async () => {
      const memory = await open("bm25", { sessionContextWeight: 0 });
      await memory.import([
        turn("q", "Melanie: Which sport did you pick up this spring?", 1, "s1"),
        turn("a", "Caroline: Bouldering, twice a week.", 2, "s1"),
      ]);
      await memory.import([turn("q", "Melanie: Which sport did you pick up this spring?", 1, "s2")]);
      const found = await memory.recall("which sport this spring", { limit: 5 });
      expect(found.map((e) => e.key)).toEqual(["q"]);
    });

    it("re-indexes the turn that followed a turn taken out of its session", async () => {
      const memory = await open("bm25", { sessionContextWeight: 0 });
      await memory.import([
        {
          key: "q",
          content: "Melanie: Which sport did you pick up this spring?",
          category: "conversation",
          sessionId: "s1",
          createdAt: "2025-05-30T10:01:00.000Z",
        },
        {
          key: "a",
          content: "Caroline: Bouldering, twice a week.",
          category: "conversation",
          sessionId: "s1",
          createdAt: "2025-05-30T10:02:00.000Z",
        },
      ]);
      const keys = async () =>
        (await memory.recall("which sport this spring", { limit: 5 })).map((e) => e.key);
      expect(await keys()).toEqual(["q", "a"]);
      await memory.store("q", "Melanie: Which sport did you pick up this spring?", {
        category: "conversation",
      });
      expect(await keys()).toEqual(["q"]);
    });
  });
}
