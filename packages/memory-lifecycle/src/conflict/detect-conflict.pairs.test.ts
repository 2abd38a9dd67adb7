import type { ConflictScore } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { detectConflict } from "./detect-conflict.js";

const THRESHOLD = 0.6;

/**
 * Real sentence pairs, old memory first, scored in Jaccard mode (what runs without embeddings).
 * The figures are the resolution table of issue 5; change them only with the algorithm.
 */
const JACCARD_PAIRS: Array<[string, string, { jaccard: number; signals: string[]; total: number }]> = [
  [
    "I like coffee",
    "I don't like coffee anymore",
    { jaccard: 0.6, signals: ["negation", "preference"], total: 0.81 },
  ],
  [
    "The user prefers tabs for indentation",
    "The user prefers spaces for indentation",
    { jaccard: 0.714286, signals: ["preference"], total: 0.804286 },
  ],
  [
    "The user always uses vim",
    "The user now uses helix, not vim",
    { jaccard: 0.5, signals: ["negation", "temporal"], total: 0.71 },
  ],
  [
    "Deploys happen on Fridays",
    "Deploys never happen on Fridays",
    { jaccard: 0.8, signals: ["negation"], total: 0.92 },
  ],
  ["The user likes Python", "The user likes Rust", { jaccard: 0.6, signals: ["preference"], total: 0.69 }],
  [
    "The user's name is Alice",
    "The user's name is Alice Smith",
    { jaccard: 0.833333, signals: [], total: 0.833333 },
  ],
  // Below the threshold: related but not the same fact, or unrelated.
  [
    "The user always uses vim to edit code",
    "The user switched to helix to edit code recently",
    { jaccard: 0.454545, signals: ["temporal"], total: 0.544545 },
  ],
  [
    "I like coffee",
    "I like hiking in the mountains",
    { jaccard: 0.285714, signals: ["preference"], total: 0.375714 },
  ],
  ["The standup is at 10:00", "The user prefers dark mode", { jaccard: 0.1, signals: [], total: 0.1 }],
  [
    "Meeting notes: discussed the roadmap",
    "The user always drinks tea",
    { jaccard: 0.111111, signals: [], total: 0.111111 },
  ],
  ["always uses vim", "switched to helix recently", { jaccard: 0, signals: [], total: 0 }],
];

describe("detectConflict on real sentence pairs (Jaccard mode)", () => {
  it.each(JACCARD_PAIRS)("%s / %s", (a, b, expected) => {
    const score = detectConflict({ content: a }, { content: b }, { kind: "jaccard" });
    expect(score.mode).toBe("jaccard");
    expect(score.jaccard).toBeCloseTo(expected.jaccard, 5);
    expect(score.signals).toEqual(expected.signals);
    expect(score.total).toBeCloseTo(expected.total, 5);
    expect(score.total > THRESHOLD).toBe(expected.total > THRESHOLD);
  });

  it("is symmetric", () => {
    for (const [a, b] of JACCARD_PAIRS) {
      const ab = detectConflict({ content: a }, { content: b }, { kind: "jaccard" });
      const ba = detectConflict({ content: b }, { content: a }, { kind: "jaccard" });
      expect(ba.total).toBeCloseTo(ab.total, 9);
    }
  });
});

/** Unit vectors at a chosen angle: what an embedding model says about two sentences' topic. */
function pairWithCosine(cosine: number): [Float32Array, Float32Array] {
  return [Float32Array.from([1, 0, 0]), Float32Array.from([cosine, Math.sqrt(1 - cosine * cosine), 0])];
}

const COMBINED = { kind: "combined", jaccardWeight: 0.4, cosineWeight: 0.4, bm25Weight: 0.2 } as const;

describe("detectConflict in combined mode", () => {
  it("weights Jaccard, cosine and BM25 overlap 0.4/0.4/0.2 and adds 0.3 × the contradiction", () => {
    const [ea, eb] = pairWithCosine(0.85);
    const score = detectConflict(
      { content: "The user always uses vim to edit code", embedding: ea },
      { content: "The user switched to helix to edit code recently", embedding: eb },
      COMBINED,
    );
    expect(score.mode).toBe("combined");
    expect(score.cosine).toBeCloseTo(0.85, 6);
    const similarity = 0.4 * score.jaccard + 0.4 * 0.85 + 0.2 * (score.bm25 as number);
    expect(score.similarity).toBeCloseTo(similarity, 6);
    expect(score.total).toBeCloseTo(similarity + 0.3 * 0.3, 5);
    // The embedding sees one topic where the words differ: this pair now conflicts.
    expect(score.total).toBeGreaterThan(THRESHOLD);
  });

  it("keeps unrelated sentences apart even with a fairly close embedding", () => {
    const [ea, eb] = pairWithCosine(0.5);
    const score = detectConflict(
      { content: "I like coffee", embedding: ea },
      { content: "I like hiking in the mountains", embedding: eb },
      COMBINED,
    );
    expect(score.total).toBeLessThan(THRESHOLD);
  });

  it("falls back to plain Jaccard, weights not redistributed, when either side has no embedding", () => {
    const [ea] = pairWithCosine(1);
    const a = { content: "The user prefers tabs for indentation", embedding: ea };
    const b = { content: "The user prefers spaces for indentation" };
    const combined = detectConflict(a, b, COMBINED);
    const jaccard = detectConflict(a, b, { kind: "jaccard" });
    expect(combined.mode).toBe("jaccard");
    expect(combined.cosine).toBeUndefined();
    expect(combined.total).toBe(jaccard.total);
    expect(combined.similarity).toBe(combined.jaccard);
  });

  it("treats embeddings of different sizes as missing", () => {
    const score = detectConflict(
      { content: "a b c", embedding: Float32Array.from([1, 0]) },
      { content: "a b d", embedding: Float32Array.from([1, 0, 0]) },
      COMBINED,
    );
    expect(score.mode).toBe("jaccard");
  });
});

describe("detectConflict signals match whole words only", () => {
  const signals = (a: string, b: string): ConflictScore["signals"] =>
    detectConflict({ content: a }, { content: b }, { kind: "jaccard" }).signals;

  it('does not read "no" inside "know" or "not" inside "nothing"-free words', () => {
    expect(signals("I know the answer to the quiz", "I know the answer to the test")).toEqual([]);
    expect(signals("The notebook is on the desk", "The notebook is on the shelf")).toEqual([]);
  });

  it('does not read "now" inside "known" or "always" inside "hallways"', () => {
    expect(signals("The hallways are always known to be cold", "The hallways are known to be cold")).toEqual(
      [],
    );
    expect(signals("The user walks the hallways daily", "The user walks the hallways now")).toEqual([]);
  });

  it("matches phrases and apostrophe forms as whole tokens", () => {
    expect(signals("The user drinks coffee", "The user no longer drinks coffee")).toEqual(["negation"]);
    expect(signals("The user drinks coffee", "The user doesn’t drink coffee")).toEqual(["negation"]);
  });

  it("needs Jaccard > 0.3 for negation and > 0.2 for the temporal shift", () => {
    expect(signals("cats", "I don't own a dog")).toEqual([]);
    expect(signals("always late", "switched jobs recently")).toEqual([]);
  });

  it("does not count a preference when the contents are identical", () => {
    expect(signals("The user likes tea", "The user likes tea")).toEqual([]);
  });
});
