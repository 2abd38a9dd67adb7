import { describe, expect, it } from "vitest";
import { LOCOMO_GROUPING } from "./quality-datasets.js";
import {
  aggregateByCategory,
  ndcgAt,
  type QuestionMetrics,
  questionMetrics,
  recallAt,
  reciprocalRank,
} from "./retrieval-metrics.js";

const ev = (...ids: string[]) => new Set(ids);

describe("recallAt", () => {
  it("is the share of evidence turns within the first k", () => {
    const ranked = ["a", "x", "b", "y", "z", "c"];
    expect(recallAt(ranked, ev("a", "b", "c"), 1)).toBeCloseTo(1 / 3);
    expect(recallAt(ranked, ev("a", "b", "c"), 5)).toBeCloseTo(2 / 3);
    expect(recallAt(ranked, ev("a", "b", "c"), 10)).toBe(1);
    expect(recallAt(ranked, ev("q"), 10)).toBe(0);
  });

  it("counts a repeated result once", () => {
    expect(recallAt(["a", "a", "b"], ev("a", "b"), 2)).toBe(1);
  });
});

describe("reciprocalRank", () => {
  it("is 1 over the rank of the first evidence turn", () => {
    expect(reciprocalRank(["a", "b"], ev("a"))).toBe(1);
    expect(reciprocalRank(["x", "y", "b", "a"], ev("a", "b"))).toBeCloseTo(1 / 3);
  });

  it("is 0 when the first evidence turn is below rank 10", () => {
    const ranked = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "a"];
    expect(reciprocalRank(ranked, ev("a"))).toBe(0);
    expect(reciprocalRank(ranked.slice(1), ev("a"))).toBeCloseTo(0.1);
  });
});

describe("ndcgAt", () => {
  it("is 1 when every evidence turn is at the top", () => {
    expect(ndcgAt(["a", "b", "x"], ev("a", "b"))).toBe(1);
  });

  it("discounts evidence found lower, against the ideal of all evidence first", () => {
    // DCG = 1/log2(3) = 0.63093; IDCG = 1 + 1/log2(3) = 1.63093
    expect(ndcgAt(["x", "a", "y"], ev("a", "b"))).toBeCloseTo(0.63093 / 1.63093, 5);
    // DCG = 1/log2(2) + 1/log2(5) = 1.43068; IDCG = 1 + 0.63093 + 0.5 = 2.13093
    expect(ndcgAt(["a", "x", "y", "b"], ev("a", "b", "c"))).toBeCloseTo(1.43068 / 2.13093, 5);
  });

  it("caps the ideal at 10 results when there are more evidence turns", () => {
    const twelve = Array.from({ length: 12 }, (_, i) => `e${i}`);
    expect(ndcgAt(twelve, new Set(twelve))).toBe(1);
  });
});

describe("questionMetrics", () => {
  it("computes every metric of one question", () => {
    const m = questionMetrics(["x", "a", "y", "z", "w", "b"], ["a", "b"]);
    expect(m["recall@1"]).toBe(0);
    expect(m["recall@5"]).toBe(0.5);
    expect(m["recall@10"]).toBe(1);
    expect(m["recall@20"]).toBe(1);
    expect(m["recall@40"]).toBe(1);
    expect(m.mrr).toBe(0.5);
    // DCG = 1/log2(3) + 1/log2(7) = 0.63093 + 0.35621; IDCG = 1.63093
    expect(m["ndcg@10"]).toBeCloseTo(0.98714 / 1.63093, 4);
  });
});

describe("deep recall", () => {
  it("counts evidence down to rank 20 and 40, while MRR and nDCG stop at 10", () => {
    const fillers = (n: number, from: number) => Array.from({ length: n }, (_, i) => `f${from + i}`);
    // Evidence at ranks 3, 15 and 35.
    const ranked = [
      ...fillers(2, 0),
      "a",
      ...fillers(11, 2),
      "b",
      ...fillers(19, 13),
      "c",
      ...fillers(5, 32),
    ];
    const m = questionMetrics(ranked, ["a", "b", "c", "d"]);
    expect(ranked.indexOf("b")).toBe(14);
    expect(ranked.indexOf("c")).toBe(34);
    expect(m["recall@10"]).toBe(0.25);
    expect(m["recall@20"]).toBe(0.5);
    expect(m["recall@40"]).toBe(0.75);
    expect(m.mrr).toBeCloseTo(1 / 3);
  });

  it("gives no credit below rank 10 to MRR even when evidence is found deeper", () => {
    const ranked = [...Array.from({ length: 12 }, (_, i) => `x${i}`), "a"];
    const m = questionMetrics(ranked, ["a"]);
    expect(m["recall@20"]).toBe(1);
    expect(m.mrr).toBe(0);
    expect(m["ndcg@10"]).toBe(0);
  });
});

describe("aggregateByCategory", () => {
  const m = (value: number): QuestionMetrics => ({
    "recall@1": value,
    "recall@5": value,
    "recall@10": value,
    "recall@20": value,
    "recall@40": value,
    mrr: value,
    "ndcg@10": value,
  });

  it("averages per category and pools 1–4 by question, keeping 5 apart", () => {
    const groups = aggregateByCategory(
      [
        { category: "cat1", metrics: m(1) },
        { category: "cat1", metrics: m(0) },
        { category: "cat4", metrics: m(1) },
        { category: "cat5", metrics: m(0.25) },
      ],
      LOCOMO_GROUPING,
    );
    expect(groups.get("cat1")).toEqual({ count: 2, means: m(0.5) });
    expect(groups.get("cat4")).toEqual({ count: 1, means: m(1) });
    expect(groups.get("cat5")).toEqual({ count: 1, means: m(0.25) });
    expect(groups.get("cat1-4")?.count).toBe(3);
    expect(groups.get("cat1-4")?.means.mrr).toBeCloseTo(2 / 3);
  });

  it("reports empty categories as zero questions", () => {
    expect(aggregateByCategory([], LOCOMO_GROUPING).get("cat3")).toEqual({ count: 0, means: m(0) });
  });
});
