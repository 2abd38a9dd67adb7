import { isMemoryError } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { openTestMemory } from "./test-support/temp-memory.js";

async function seeded() {
  const memory = openTestMemory();
  await memory.store("lang", "The user prefers TypeScript for backend services");
  await memory.store("pet", "The user has a dog named Rex who runs every morning");
  await memory.store("deploy", "Deployments happen on Fridays after the release review");
  await memory.store("quote", 'She said "ship it" (AND NOT later) near the end: col:x * ^');
  return memory;
}

describe("recall by keyword (bm25)", () => {
  it("ranks entries that contain the query terms, best first", async () => {
    const memory = await seeded();
    const hits = await memory.recall("which language does the user prefer for backend?", { mode: "bm25" });
    expect(hits[0]?.key).toBe("lang");
    expect(hits[0]?.score).toBeGreaterThan(0);
    expect(hits[0]?.score).toBeLessThan(1);
  });

  it("matches word forms through porter stemming", async () => {
    const memory = await seeded();
    const hits = await memory.recall("running", { mode: "bm25" });
    expect(hits.map((h) => h.key)).toEqual(["pet"]);
  });

  it("widens to prefixes when exact terms find too little", async () => {
    const memory = await seeded();
    const hits = await memory.recall("deplo", { mode: "bm25" });
    expect(hits.map((h) => h.key)).toEqual(["deploy"]);
  });

  it("drops stop words so they do not pull unrelated entries in", async () => {
    const memory = await seeded();
    const hits = await memory.recall("the user has a dog", { mode: "bm25" });
    expect(hits[0]?.key).toBe("pet");
  });

  it.each([
    ['"'],
    ["a AND"],
    ["NEAR("],
    ["col:x"],
    ["*"],
    ["^"],
    ["((("],
    [")"],
    ["'; DROP TABLE memories; --"],
    ["ship\u0000it"],
    ["AND OR NOT"],
    ["-dog +rex"],
    ["key:lang"],
  ])("treats hostile query %j as data and never throws", async (query) => {
    const memory = await seeded();
    const hits = await memory.recall(query, { mode: "bm25" });
    expect(Array.isArray(hits)).toBe(true);
    expect(await memory.count()).toBe(4);
  });

  it("finds text that looks like FTS5 syntax as plain words", async () => {
    const memory = await seeded();
    const hits = await memory.recall('"ship it" NEAR(', { mode: "bm25" });
    expect(hits[0]?.key).toBe("quote");
  });

  it("handles a 1 MB query", async () => {
    const memory = await seeded();
    const query = `typescript ${"x".repeat(1024 * 1024)}`;
    const hits = await memory.recall(query, { mode: "bm25" });
    expect(hits[0]?.key).toBe("lang");
  });

  it("rejects a non-string query with INVALID_INPUT", async () => {
    const memory = await seeded();
    const error = await memory.recall(42 as unknown as string).catch((e: unknown) => e);
    expect(isMemoryError(error, "INVALID_INPUT")).toBe(true);
  });

  it("returns the most recent entries for an empty or * query", async () => {
    let t = Date.parse("2026-01-01T00:00:00Z");
    const tick = () => {
      t += 1000;
      return new Date(t);
    };
    const memory = openTestMemory({ now: tick });
    await memory.store("a", "first");
    await memory.store("b", "second");
    await memory.store("c", "third");
    expect((await memory.recall("", { limit: 2 })).map((e) => e.key)).toEqual(["c", "b"]);
    expect((await memory.recall("*")).map((e) => e.key)).toEqual(["c", "b", "a"]);
  });

  it("falls back to LIKE over content and key when ranked search finds nothing", async () => {
    const memory = openTestMemory();
    await memory.store("net_cfg", "Reconfigured the router yesterday");
    await memory.store("pct", "Discount code gives 1000 points");
    const hits = await memory.recall("onfig");
    expect(hits.map((h) => h.key)).toEqual(["net_cfg"]);
    // Every keyword found by substring: a full match, 0.5 (no ranked strength).
    expect(hits[0]?.score).toBe(0.5);
    // % and _ are never wildcards: alone they match nothing rather than everything.
    expect(await memory.recall("%")).toEqual([]);
    expect(await memory.recall("_")).toEqual([]);
    expect((await memory.recall("outer yester")).map((h) => h.key)).toEqual(["net_cfg"]);
  });

  it("does not use the LIKE fallback in bm25 mode", async () => {
    const memory = openTestMemory();
    await memory.store("net_cfg", "Reconfigured the router yesterday");
    expect(await memory.recall("onfig", { mode: "bm25" })).toEqual([]);
  });
});

describe("keyword ranking refinements", () => {
  it("ranks an entry covering more of the query above one repeating a single rare term", async () => {
    const memory = openTestMemory();
    await memory.store("one", "zebra zebra zebra");
    await memory.store("both", "the zebra at the city zoo was sleeping all afternoon long");
    const hits = await memory.recall("zebra zoo", { mode: "bm25" });
    expect(hits.map((h) => h.key)).toEqual(["both", "one"]);
  });

  it("lends part of a hit's score to its neighbours in the same session", async () => {
    const memory = openTestMemory();
    await memory.import([
      { key: "q", content: "Do you want new running shoes for the marathon?", sessionId: "s1" },
      { key: "a", content: "Yes please, purple ones would be lovely", sessionId: "s1" },
      { key: "x", content: "Completely unrelated remark about lunch", sessionId: "s1" },
      { key: "other", content: "Lovely purple flowers in the garden" },
    ]);
    const keys = (await memory.recall("running shoes marathon", { mode: "bm25" })).map((h) => h.key);
    expect(keys[0]).toBe("q");
    expect(keys).toContain("a");
    // "x" shares no word: it is only lent a share of its neighbour's score, so it comes last.
    expect(keys.at(-1)).toBe("x");
    // Without lending, "a" is still found through its context (the question before it); "x" is not.
    const off = openTestMemory({ settings: { sessionContextWeight: 0 } });
    await off.import([
      { key: "q", content: "Do you want new running shoes for the marathon?", sessionId: "s1" },
      { key: "a", content: "Yes please, purple ones would be lovely", sessionId: "s1" },
    ]);
    await off.import([{ key: "x", content: "Completely unrelated remark about lunch", sessionId: "s1" }]);
    expect((await off.recall("running shoes marathon", { mode: "bm25" })).map((h) => h.key)).toEqual([
      "q",
      "a",
    ]);
  });
});
