import { describe, expect, it } from "vitest";
import { createCorpus } from "./corpus.js";
import { FUNCTION_WORDS } from "./vocabulary.js";

const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, i) => sum + x * (b[i] as number), 0);
const norm = (a: Float32Array) => Math.sqrt(dot(a, a));

describe("synthetic corpus", () => {
  const corpus = createCorpus({ size: 2_000, dimensions: 384, seed: 7 });

  it("is the same for the same seed and differs for another", () => {
    const again = createCorpus({ size: 2_000, dimensions: 384, seed: 7 });
    const other = createCorpus({ size: 2_000, dimensions: 384, seed: 8 });
    for (const i of [0, 1, 17, 1_999]) {
      expect(again.sentenceAt(i)).toBe(corpus.sentenceAt(i));
      expect(Array.from(again.vectorAt(i))).toEqual(Array.from(corpus.vectorAt(i)));
      expect(other.sentenceAt(i)).not.toBe(corpus.sentenceAt(i));
    }
    expect(again.queries(20).map((q) => q.text)).toEqual(corpus.queries(20).map((q) => q.text));
  });

  it("writes sentences of 8–40 words ending with a full stop", () => {
    const lengths = Array.from({ length: 500 }, (_, i) => corpus.wordsAt(i).length);
    expect(Math.min(...lengths)).toBeGreaterThanOrEqual(8);
    expect(Math.max(...lengths)).toBeLessThanOrEqual(40);
    expect(Math.max(...lengths)).toBeGreaterThan(30);
    expect(corpus.sentenceAt(3)).toMatch(/^[A-Z][a-z' ]+\.$/);
  });

  it("draws words with a Zipf law: a few common terms, most of them rare", () => {
    const counts = new Map<string, number>();
    let tokens = 0;
    for (let i = 0; i < 2_000; i++) {
      for (const word of corpus.wordsAt(i)) {
        counts.set(word, (counts.get(word) ?? 0) + 1);
        tokens++;
      }
    }
    const sorted = [...counts.values()].sort((a, b) => b - a);
    const top10 = sorted.slice(0, 10).reduce((s, c) => s + c, 0);
    expect(top10 / tokens).toBeGreaterThan(0.2);
    expect(counts.get("the")).toBe(sorted[0]);
    // Most distinct words occur only a handful of times in 40k tokens.
    expect(sorted.filter((c) => c <= 5).length / sorted.length).toBeGreaterThan(0.5);
    expect(corpus.vocabulary.words.slice(0, FUNCTION_WORDS.length)).toEqual(FUNCTION_WORDS);
    expect(new Set(corpus.vocabulary.words).size).toBe(corpus.vocabulary.words.length);
  });

  it("makes unit vectors close to their own cluster's centroid", () => {
    let own = 0;
    for (let i = 0; i < 200; i++) {
      const v = corpus.vectorAt(i);
      expect(v.length).toBe(384);
      expect(norm(v)).toBeCloseTo(1, 5);
      const sims = Array.from({ length: corpus.clusters }, (_, c) => dot(v, corpus.centroid(c)));
      const mine = sims[corpus.clusterOf(i)] as number;
      expect(mine).toBe(Math.max(...sims));
      expect(mine).toBeGreaterThan(0.7);
      own += mine;
    }
    expect(own / 200).toBeCloseTo(0.8, 1);
    expect(dot(corpus.vectorAt(0), corpus.vectorAt(0))).toBeCloseTo(1, 5);
  });

  it("fills a chunk of vectors exactly as vectorAt does", () => {
    const chunk = corpus.fillVectors(10, 3);
    expect(Array.from(chunk.subarray(384, 768))).toEqual(Array.from(corpus.vectorAt(11)));
  });

  it("asks unique 2–5 word queries whose vectors sit next to their target's", () => {
    const queries = corpus.queries(100, { salt: 3 });
    expect(new Set(queries.map((q) => q.text)).size).toBe(100);
    for (const q of queries) {
      const words = q.text.split(" ");
      expect(words.length).toBeGreaterThanOrEqual(2);
      expect(words.length).toBeLessThanOrEqual(5);
      expect(words.some((w) => FUNCTION_WORDS.includes(w))).toBe(false);
      expect(norm(q.vector)).toBeCloseTo(1, 5);
      expect(dot(q.vector, corpus.vectorAt(q.target))).toBeGreaterThan(0.9);
    }
    expect(corpus.queries(5, { salt: 4 }).map((q) => q.text)).not.toEqual(
      queries.slice(0, 5).map((q) => q.text),
    );
  });
});
