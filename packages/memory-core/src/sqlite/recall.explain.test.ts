import type { MemoryEntry, RecallExplanation } from "@claw/memory-api";
import { isMemoryError } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { createHashingEmbeddingProvider } from "../embedding/hashing-embedding-provider.js";
import { calibratedScore } from "../recall/calibrated-score.js";
import { openTestMemory } from "./test-support/temp-memory.js";

const NOW = "2024-06-01T00:00:00Z";

const turn = (key: string, content: string, day: string, minute: number) => ({
  key,
  content,
  category: "conversation",
  sessionId: `s-${day}`,
  createdAt: `${day}T10:${String(minute).padStart(2, "0")}:00Z`,
  updatedAt: `${day}T10:${String(minute).padStart(2, "0")}:00Z`,
});

const notes = [
  { key: "db", content: "The production database is PostgreSQL 15 on a managed host.", category: "core" },
  { key: "cache", content: "Sessions are cached in Redis with a short time to live.", category: "core" },
  turn("q", "Which database did we pick for production?", "2024-05-01", 1),
  turn("a", "We went with the managed one, version 15.", "2024-05-01", 2),
  turn("z", "The weekly demo moved to Thursday afternoons.", "2024-01-10", 1),
];

function explained(entry: MemoryEntry): RecallExplanation {
  expect(entry.explain).toBeDefined();
  return entry.explain as RecallExplanation;
}

/** The explanation's parts give the score returned, by the formula it states. */
function expectConsistent(entry: MemoryEntry): void {
  const e = explained(entry);
  expect(e.relevance).toBe(calibratedScore(e.coverage, e.strength));
  expect(e.relevance * e.recency).toBe(entry.score);
  expect(e.score).toBe(entry.score);
}

describe("recall with explain", () => {
  it("gives each keyword result its parts, which give its score", async () => {
    const memory = openTestMemory();
    await memory.import(notes);
    const found = await memory.recall("which production database", { explain: true, now: NOW, limit: 5 });
    expect(
      found
        .map((e) => e.key)
        .slice(0, 2)
        .sort(),
    ).toEqual(["db", "q"]);
    for (const entry of found) expectConsistent(entry);
    const db = explained(found.find((e) => e.key === "db") as MemoryEntry);
    expect(db.mode).toBe("bm25");
    expect(db.fusion).toBe("bm25");
    expect(db.keyword?.terms).toEqual(["production", "database"]);
    expect(db.coverage).toBe(1);
    expect(db.recency).toBe(1);
    expect(db.vector).toBeUndefined();
    expect(db.mmr).toBeUndefined();
    const ranks = found.flatMap((e) => (e.explain?.keyword ? [e.explain.keyword.rank] : []));
    expect(new Set(ranks).size).toBe(ranks.length);
  });

  it("says what a session neighbour lent and what recency took", async () => {
    const memory = openTestMemory();
    await memory.import(notes);
    const found = await memory.recall("which production database", { explain: true, now: NOW, limit: 5 });
    // The answer holds none of the words: it is found through the question before it.
    const answer = explained(found.find((e) => e.key === "a") as MemoryEntry);
    expect(answer.keyword?.terms).toEqual([]);
    expect(answer.keyword?.neighbour).toBeGreaterThan(0);
    expect(answer.keyword?.neighbour).toBe(answer.keyword?.score);
    const question = explained(found.find((e) => e.key === "q") as MemoryEntry);
    // The question's own neighbour matched nothing: it was lent nothing.
    expect(question.keyword?.neighbour).toBe(0);
    expect(question.keyword?.score).toBeGreaterThan(0);
    // A month-old conversation turn is decayed, within the floor: ages are counted from the
    // recall's fixed `now` and the turn's fixed date, never from the clock.
    expect(question.recency).toBeLessThan(1);
    expect(question.recency).toBeGreaterThanOrEqual(0.8);
  });

  it("gives hybrid results their vector hit and the fusion that ranked them", async () => {
    const memory = openTestMemory({
      embeddings: createHashingEmbeddingProvider({ dimensions: 64 }),
      settings: { ftsEarlyReturnScore: 1 },
    });
    await memory.import(notes);
    await memory.flush();
    const found = await memory.recall("production database", { explain: true, mode: "hybrid", now: NOW });
    expect(found.length).toBeGreaterThan(0);
    for (const entry of found) expectConsistent(entry);
    const top = explained(found[0] as MemoryEntry);
    expect(top.mode).toBe("hybrid");
    expect(top.fusion).toBe("adaptive");
    expect(found.some((e) => e.explain?.vector !== undefined && e.explain.vector.rank >= 1)).toBe(true);
  });

  it("names MMR's picks when it diversifies", async () => {
    const memory = openTestMemory({ settings: { mmrEnabled: true } });
    await memory.import(notes);
    const found = await memory.recall("database production cached", { explain: true, now: NOW, limit: 3 });
    expect(found.map((e) => e.explain?.mmr)).toEqual(found.map((_, i) => i + 1));
    for (const entry of found) expectConsistent(entry);
  });

  it("explains the substring fallback as such", async () => {
    // A provider that is down: the hybrid recall degrades to keyword search, which finds no word,
    // and the substring fallback answers.
    const down = {
      id: "down",
      model: "none",
      dimensions: 8,
      embed: async (): Promise<Float32Array[]> => {
        throw new Error("provider down");
      },
    };
    const memory = openTestMemory({ embeddings: down });
    await memory.store("part", "order SKU-XY12 shipped", { category: "core" });
    const found = await memory.recall("Y12", { explain: true, mode: "hybrid" });
    expect(found.map((e) => e.key)).toEqual(["part"]);
    const like = explained(found[0] as MemoryEntry);
    expect(like.fusion).toBe("like");
    expect(like.mode).toBe("bm25");
    expect(like.coverage).toBe(1);
    expect(like.strength).toBe(0);
    expect(like.keyword).toBeUndefined();
    expectConsistent(found[0] as MemoryEntry);
  });

  it("computes nothing when not asked, and keeps cached results apart", async () => {
    const memory = openTestMemory();
    await memory.import(notes);
    const plain = await memory.recall("production database", { now: NOW });
    expect(plain.every((e) => e.explain === undefined)).toBe(true);
    const first = await memory.recall("production database", { now: NOW, explain: true });
    expect(first.every((e) => e.explain !== undefined)).toBe(true);
    expect(first.map((e) => e.score)).toEqual(plain.map((e) => e.score));
    // A caller changing what it got does not change the next answer (the hot cache's copy).
    first[0]?.explain?.keyword?.terms.push("changed");
    const again = await memory.recall("production database", { now: NOW, explain: true });
    expect(again[0]?.explain?.keyword?.terms).not.toContain("changed");
  });

  it("refuses an explain that is not a boolean, naming it", async () => {
    const memory = openTestMemory();
    const error = await memory
      .recall("x", { explain: "yes" as unknown as boolean })
      .catch((caught: unknown) => caught);
    expect(isMemoryError(error) && error.code === "INVALID_INPUT").toBe(true);
    expect((error as Error).message).toContain("explain");
  });
});
