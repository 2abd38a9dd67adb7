import { isMemoryError } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { mmrRerank } from "./mmr.js";
import { cosineSimilarity } from "./vector-math.js";

interface Doc {
  id: string;
  score: number;
  v: Float32Array;
}

const doc = (id: string, score: number, v: number[]): Doc => ({ id, score, v: new Float32Array(v) });

const docs: Doc[] = [
  doc("original", 0.9, [1, 0, 0]),
  doc("near-duplicate", 0.88, [0.99, 0.1, 0]),
  doc("different", 0.8, [0, 1, 0]),
  doc("other", 0.5, [0, 0, 1]),
];

const options = (lambda: number, limit = 10) => ({
  lambda,
  limit,
  score: (d: Doc) => d.score,
  similarity: (a: Doc, b: Doc) => cosineSimilarity(a.v, b.v),
});

const ids = (list: Doc[]) => list.map((d) => d.id);

describe("mmrRerank", () => {
  it("demotes a near-duplicate of an already picked item below a different one", () => {
    const ranked = mmrRerank(docs, options(0.7));
    expect(ids(ranked)).toEqual(["original", "different", "other", "near-duplicate"]);
  });

  it("with lambda = 1 returns the input ordered by score, stable on ties", () => {
    const shuffled = [docs[3], docs[1], docs[0], doc("tie", 0.88, [1, 0, 0]), docs[2]] as Doc[];
    expect(ids(mmrRerank(shuffled, options(1)))).toEqual([
      "original",
      "near-duplicate",
      "tie",
      "different",
      "other",
    ]);
  });

  it("with lambda = 0 picks the top item, then whatever is least similar", () => {
    // After "original", "different" and "other" are both orthogonal (similarity 0); the higher
    // scored one comes first because candidates are pre-sorted by score.
    expect(ids(mmrRerank(docs, options(0)))).toEqual(["original", "different", "other", "near-duplicate"]);
  });

  it("stops at the limit", () => {
    expect(ids(mmrRerank(docs, options(0.7, 2)))).toEqual(["original", "different"]);
    expect(mmrRerank(docs, options(0.7, 0))).toEqual([]);
  });

  it("normalises relevance by the batch maximum, so the score scale does not matter", () => {
    const scaled = docs.map((d) => ({ ...d, score: d.score * 1000 }));
    expect(ids(mmrRerank(scaled, options(0.7)))).toEqual(ids(mmrRerank(docs, options(0.7))));
  });

  it("returns the input objects themselves, each at most once", () => {
    const ranked = mmrRerank(docs, options(0.5));
    expect(ranked).toHaveLength(4);
    expect(new Set(ranked).size).toBe(4);
    expect(ranked[0]).toBe(docs[0]);
  });

  it("returns an empty array for empty input", () => {
    expect(mmrRerank<Doc>([], options(0.5))).toEqual([]);
  });

  it("rejects lambda outside [0, 1] and a bad limit", () => {
    for (const [lambda, limit, field] of [
      [-0.1, 5, "lambda"],
      [1.1, 5, "lambda"],
      [Number.NaN, 5, "lambda"],
      [0.5, -1, "limit"],
      [0.5, 1.5, "limit"],
    ] as const) {
      try {
        mmrRerank(docs, options(lambda, limit));
        expect.unreachable();
      } catch (err) {
        expect(isMemoryError(err, "INVALID_INPUT")).toBe(true);
        expect((err as { field?: string }).field).toBe(field);
      }
    }
  });
});
