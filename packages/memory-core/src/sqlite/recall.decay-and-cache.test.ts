import { describe, expect, it } from "vitest";
import { createHashingEmbeddingProvider } from "../embedding/hashing-embedding-provider.js";
import { countingProvider, openTestMemory } from "./test-support/temp-memory.js";

describe("time decay", () => {
  it("with decay_floor 0, halves a non-core entry's score every 7 days and leaves core alone", async () => {
    let now = new Date("2026-01-01T00:00:00Z");
    const memory = openTestMemory({ now: () => now, settings: { decayFloor: 0 } });
    await memory.store("d", "weekly sync about the roadmap", { category: "daily" });
    await memory.store("c", "weekly sync about the roadmap", { category: "core" });
    const fresh = await memory.recall("roadmap", { mode: "bm25" });
    expect(fresh.find((e) => e.key === "c")?.score).toBe(fresh.find((e) => e.key === "d")?.score);
    now = new Date("2026-01-08T00:00:00Z");
    await memory.store("other", "a write so that the hot cache is cleared");
    const later = await memory.recall("roadmap", { mode: "bm25" });
    expect(later.map((e) => e.key)).toEqual(["c", "d"]);
    expect((later[1]?.score as number) / (later[0]?.score as number)).toBeCloseTo(0.5, 9);
    now = new Date("2026-01-15T00:00:00Z");
    await memory.store("other", "another write");
    const twoWeeks = await memory.recall("roadmap", { mode: "bm25" });
    expect((twoWeeks[1]?.score as number) / (twoWeeks[0]?.score as number)).toBeCloseTo(0.25, 9);
  });
});

describe("hot cache", () => {
  it("answers a repeated recall without the provider and forgets on every write", async () => {
    const counting = countingProvider(createHashingEmbeddingProvider());
    const memory = openTestMemory({ embeddings: counting.provider, settings: { ftsEarlyReturnScore: 1 } });
    await memory.store("a", "the cat sleeps on the sofa");
    await memory.flush();
    const first = await memory.recall("cat sofa");
    expect(counting.calls.query).toBe(1);
    expect(await memory.recall("cat sofa")).toEqual(first);
    expect(counting.calls.query).toBe(1);
    await memory.store("b", "the cat eats fish");
    await memory.recall("cat sofa");
    expect(counting.calls.query).toBe(2);
    await memory.forget("b");
    await memory.recall("cat sofa");
    expect(counting.calls.query).toBe(3);
  });

  it("returns copies, so a caller mutating results cannot corrupt the cache", async () => {
    const memory = openTestMemory();
    await memory.store("a", "the cat sleeps on the sofa");
    const first = await memory.recall("cat");
    (first[0] as { content: string }).content = "changed";
    expect((await memory.recall("cat"))[0]?.content).toBe("the cat sleeps on the sofa");
  });
});
