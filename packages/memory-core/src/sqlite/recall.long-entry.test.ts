import type { MemoryEntry } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { calibratedScore } from "../recall/calibrated-score.js";
import { openTestMemory } from "./test-support/temp-memory.js";

/**
 * A long answer that mentions the question's words again and again, and the short message that is
 * about them: BM25 puts the long one first; the long-entry factor puts the short one first.
 */
const answer = [
  "Here is a long walkthrough of async error handling in Node, with a code example for each case.",
  ...Array.from(
    { length: 12 },
    (_, i) =>
      `Case ${i}: the async error handling code example wraps await in try and catch, and logs the error.`,
  ),
  ...Array.from(
    { length: 12 },
    (_, i) => `Step ${i} adds logging to the handler, then checks the retries again.`,
  ),
].join(" ");
const entries = [
  { key: "answer", content: answer, category: "conversation" },
  { key: "rule", content: "Always give a code example for async error handling.", category: "core" },
  { key: "other", content: "The deploy runs on Fridays.", category: "core" },
];

const keys = (found: readonly MemoryEntry[]) => found.map((e) => e.key);

describe("recall of long entries", () => {
  it("puts a short entry about the query before a long one that holds its words many times", async () => {
    const memory = openTestMemory();
    await memory.import(entries);
    const found = await memory.recall("async error handling code example", { explain: true, limit: 3 });
    expect(keys(found)).toEqual(["rule", "answer"]);
    const answer = found[1] as MemoryEntry;
    const why = answer.explain;
    expect(why?.length?.words).toBeGreaterThan(300);
    expect(why?.length?.factor).toBeCloseTo((100 / (why?.length?.words ?? 1)) ** 0.5, 12);
    expect(why?.relevance).toBe(calibratedScore(why?.coverage ?? 0, why?.strength ?? 0));
    expect(found[0]?.explain?.length).toBeUndefined();
  });

  it("ranks by BM25 alone with long_entry_exponent 0", async () => {
    const memory = openTestMemory({ settings: { longEntryExponent: 0 } });
    await memory.import(entries);
    const found = await memory.recall("async error handling code example", { explain: true, limit: 3 });
    expect(keys(found)).toEqual(["answer", "rule"]);
    expect(found[0]?.explain?.length).toBeUndefined();
  });

  it("keeps an entry holding every query term at a score of at least 0.5, however long", async () => {
    const memory = openTestMemory();
    await memory.import(entries);
    const found = await memory.recall("async error handling", { explain: true, limit: 3 });
    const answer = found.find((e) => e.key === "answer");
    expect(answer?.explain?.coverage).toBe(1);
    expect(answer?.explain?.length?.factor).toBeLessThan(0.6);
    expect(answer?.score).toBeGreaterThanOrEqual(0.5);
  });
});
