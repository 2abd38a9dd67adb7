import { describe, expect, it } from "vitest";
import { createHashingEmbeddingProvider } from "../embedding/hashing-embedding-provider.js";
import { countingProvider, openTestMemory } from "./test-support/temp-memory.js";

const CORPUS: Array<[string, string]> = [
  ["coffee", "Alice drinks black coffee every morning before work"],
  ["tea", "Bob prefers green tea in the afternoon"],
  ["espresso", "The office espresso machine makes strong coffee drinks"],
  ["bikes", "Carol rides her bike to the office when it is sunny"],
  ["morning", "Morning standup starts at nine for the whole team"],
];

async function seeded(settings: Parameters<typeof openTestMemory>[0] = {}) {
  const counting = countingProvider(createHashingEmbeddingProvider({ dimensions: 128 }));
  const memory = openTestMemory({ embeddings: counting.provider, ...settings });
  for (const [key, content] of CORPUS) await memory.store(key, content);
  await memory.flush();
  return { memory, counting };
}

describe("hybrid recall", () => {
  it("with merge_strategy rrf, returns both lists' entries with calibrated scores", async () => {
    const { memory } = await seeded({
      settings: { ftsEarlyReturnScore: 1, mergeStrategy: { kind: "rrf", k: 60 } },
    });
    const query = "coffee drinks in the morning";
    const depth = { limit: 40 };
    const keyword = (await memory.recall(query, { mode: "bm25", ...depth })).map((e) => e.key);
    const vector = (await memory.recall(query, { mode: "embedding", ...depth })).map((e) => e.key);
    expect(keyword.length).toBeGreaterThan(1);
    expect(vector.length).toBeGreaterThan(1);
    const hybrid = await memory.recall(query, { mode: "hybrid", ...depth });
    expect(hybrid.map((e) => e.key).sort()).toEqual([...new Set([...keyword, ...vector])].sort());
    const scores = hybrid.map((e) => e.score as number);
    for (const [i, score] of scores.entries()) {
      expect(score).toBeGreaterThan(0);
      expect(score).toBeLessThanOrEqual(1);
      if (i > 0) expect(score).toBeLessThanOrEqual(scores[i - 1] as number);
    }
  });

  it("fuses with weights 0.7 vector / 0.3 keyword normalised by the batch maximum", async () => {
    const { memory } = await seeded({
      settings: {
        ftsEarlyReturnScore: 1,
        mergeStrategy: { kind: "weighted", vectorWeight: 0.7, keywordWeight: 0.3 },
      },
    });
    const query = "coffee drinks in the morning";
    const vector = await memory.recall(query, { mode: "embedding", limit: 40 });
    const hybrid = await memory.recall(query, { mode: "hybrid", limit: 40 });
    const bestKeyword = hybrid[0];
    expect(bestKeyword).toBeDefined();
    for (const entry of hybrid) {
      const v = vector.find((e) => e.key === entry.key)?.score ?? 0;
      // The keyword part is at most 0.3 (the batch's best keyword hit normalises to 1).
      expect(entry.score as number).toBeGreaterThanOrEqual(0.7 * v - 1e-9);
      expect(entry.score as number).toBeLessThanOrEqual(0.7 * v + 0.3 + 1e-9);
    }
    expect(
      hybrid.some(
        (e) =>
          Math.abs((e.score as number) - 0.7 * (vector.find((v) => v.key === e.key)?.score ?? 0) - 0.3) <
          1e-6,
      ),
    ).toBe(true);
  });

  it("skips the vector stage when the best keyword hit is strong and covers the query", async () => {
    const { memory, counting } = await seeded();
    for (let i = 0; i < 50; i++)
      await memory.store(`filler-${i}`, `unrelated note number ${i} about gardening`);
    await memory.flush();
    const before = counting.calls.query;
    const hits = await memory.recall("espresso machine");
    expect(hits[0]?.key).toBe("espresso");
    expect(counting.calls.query).toBe(before);
    // A query no keyword hit covers well still asks for the vector stage.
    await memory.recall("espresso bicycle gardening");
    expect(counting.calls.query).toBe(before + 1);
  });

  it("never skips the vector stage when the early-return score is 1", async () => {
    const { memory, counting } = await seeded({ settings: { ftsEarlyReturnScore: 1 } });
    await memory.recall("espresso machine");
    expect(counting.calls.query).toBe(1);
  });

  it("degrades to bm25 for a query whose embedding fails", async () => {
    const failing = {
      id: "failing",
      model: "m",
      dimensions: 8,
      async embed(texts: readonly string[], options?: { purpose?: string }) {
        if (options?.purpose === "query") throw new Error("provider down");
        return texts.map(() => new Float32Array(8).fill(0.5));
      },
    };
    const memory = openTestMemory({ embeddings: failing, settings: { ftsEarlyReturnScore: 1 } });
    await memory.store("tea", "Bob prefers green tea in the afternoon");
    await memory.flush();
    const hits = await memory.recall("green tea", { mode: "embedding" });
    expect(hits.map((e) => e.key)).toEqual(["tea"]);
    expect((await memory.recall("green tea")).map((e) => e.key)).toEqual(["tea"]);
  });

  it("demotes near-duplicates when MMR is on", async () => {
    const docs = [
      ["a", "deploy script: the deploy script runs on fridays"],
      ["b", "deploy script: the deploy script runs on fridays today"],
      ["c", "the deploy script needs two reviewers"],
    ] as const;
    const query = "deploy script";
    const plain = openTestMemory();
    const diverse = openTestMemory({ settings: { mmrEnabled: true, mmrLambda: 0.5 } });
    for (const memory of [plain, diverse]) for (const [key, text] of docs) await memory.store(key, text);
    const plainKeys = (await plain.recall(query, { mode: "bm25", limit: 2 })).map((e) => e.key);
    expect(plainKeys.sort()).toEqual(["a", "b"]);
    const diverseKeys = (await diverse.recall(query, { mode: "bm25", limit: 2 })).map((e) => e.key);
    expect(diverseKeys).toContain("c");
  });
});
