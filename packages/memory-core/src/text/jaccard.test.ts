import { describe, expect, it } from "vitest";
import { jaccardSimilarity, tokenSet } from "./jaccard.js";

describe("tokenSet", () => {
  it("holds unique lower-case words", () => {
    expect([...tokenSet("The cat saw THE cat")].sort()).toEqual(["cat", "saw", "the"]);
  });

  it("replaces CJK runs by their bigrams", () => {
    expect([...tokenSet("我喜欢 pie")].sort()).toEqual(["pie", "喜欢", "我喜"].sort());
  });

  it("keeps a single CJK character", () => {
    expect([...tokenSet("猫")]).toEqual(["猫"]);
  });
});

describe("jaccardSimilarity", () => {
  it("is 1 for identical sets and 0 for disjoint ones", () => {
    expect(jaccardSimilarity(["a", "b"], ["b", "a"])).toBe(1);
    expect(jaccardSimilarity(["a"], ["b"])).toBe(0);
  });

  it("is the intersection over the union", () => {
    expect(jaccardSimilarity(["a", "b", "c"], ["b", "c", "d"])).toBe(0.5);
    expect(jaccardSimilarity(new Set(["a", "b", "c", "d"]), new Set(["a"]))).toBe(0.25);
  });

  it("ignores duplicates in arrays", () => {
    expect(jaccardSimilarity(["a", "a", "b"], ["a"])).toBe(0.5);
  });

  it("is 0 when both sides are empty, and when one is", () => {
    expect(jaccardSimilarity([], [])).toBe(0);
    expect(jaccardSimilarity(new Set(), new Set(["x"]))).toBe(0);
  });

  it("is symmetric", () => {
    const a = tokenSet("I like strong coffee in the morning");
    const b = tokenSet("I do not like coffee");
    expect(jaccardSimilarity(a, b)).toBe(jaccardSimilarity(b, a));
    expect(jaccardSimilarity(a, b)).toBeCloseTo(3 / 9, 12);
  });

  it("sees near-duplicate Chinese sentences through bigrams", () => {
    const similarity = jaccardSimilarity(tokenSet("我喜欢吃苹果"), tokenSet("我喜欢吃香蕉"));
    // Shared: 我喜 喜欢 欢吃; union: 7 bigrams.
    expect(similarity).toBeCloseTo(3 / 7, 12);
  });
});
