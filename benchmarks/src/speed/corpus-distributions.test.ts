import { describe, expect, it } from "vitest";
import { createCorpus } from "./corpus.js";
import { dot } from "./corpus-random.js";
import { FUNCTION_WORDS } from "./vocabulary.js";

const SIZE = 2_000;
const DIMS = 128;
const norm = (a: Float32Array) => Math.sqrt(dot(a, a));

/** Share of entries `0 .. SIZE-1` of `corpus` holding `word`. */
function entryShare(corpus: ReturnType<typeof createCorpus>, word: string): number {
  let holding = 0;
  for (let i = 0; i < SIZE; i++) if (corpus.wordsAt(i).includes(word)) holding++;
  return holding / SIZE;
}

describe("common text", () => {
  const corpus = createCorpus({ size: SIZE, dimensions: DIMS, seed: 7, text: "common" });
  const stopwords = createCorpus({ size: SIZE, dimensions: DIMS, seed: 7 });

  it("gives the top ranks to content words, the same ones as the stopwords text", () => {
    expect(corpus.vocabulary.firstContent).toBe(0);
    expect(corpus.vocabulary.words.some((w) => FUNCTION_WORDS.includes(w))).toBe(false);
    expect(corpus.vocabulary.words).toEqual(stopwords.vocabulary.words.slice(FUNCTION_WORDS.length));
  });

  it("puts the top word in most entries and the 10th in about a fifth", () => {
    const top = entryShare(corpus, corpus.vocabulary.words[0] as string);
    const tenth = entryShare(corpus, corpus.vocabulary.words[9] as string);
    expect(top).toBeGreaterThan(0.6);
    expect(tenth).toBeGreaterThan(0.1);
    expect(tenth).toBeLessThan(0.3);
    // In the stopwords text the top content word is far rarer.
    expect(entryShare(stopwords, stopwords.vocabulary.words[FUNCTION_WORDS.length] as string)).toBeLessThan(
      0.3,
    );
  });

  it("keeps the entries' length distribution (8–40 words, same lengths per index)", () => {
    for (let i = 0; i < 300; i++) {
      expect(corpus.wordsAt(i).length).toBe(stopwords.wordsAt(i).length);
    }
    expect(
      Math.min(...Array.from({ length: 300 }, (_, i) => corpus.wordsAt(i).length)),
    ).toBeGreaterThanOrEqual(8);
  });
});

describe("typed queries", () => {
  const corpus = createCorpus({ size: SIZE, dimensions: DIMS, seed: 7, text: "common" });
  const queries = corpus.queries(200, { style: "typed", salt: 1 });
  const top20 = new Set(corpus.vocabulary.words.slice(0, 20));

  it("have 3–5 distinct words, 1 or 2 of them from the target entry", () => {
    expect(new Set(queries.map((q) => q.text)).size).toBe(200);
    for (const q of queries) {
      const words = q.text.split(" ");
      expect(words.length).toBeGreaterThanOrEqual(3);
      expect(words.length).toBeLessThanOrEqual(5);
      expect(new Set(words).size).toBe(words.length);
      const own = new Set(corpus.wordsAt(q.target));
      expect(words.filter((w) => own.has(w)).length).toBeGreaterThanOrEqual(1);
    }
  });

  it("contain one of the 20 most common words in most queries", () => {
    const withCommon = queries.filter((q) => q.text.split(" ").some((w) => top20.has(w))).length;
    expect(withCommon / queries.length).toBeGreaterThan(0.5);
    // The rare style, on the same corpus, has fewer of them.
    const rare = corpus.queries(200, { salt: 1 });
    const rareWithCommon = rare.filter((q) => q.text.split(" ").some((w) => top20.has(w))).length;
    expect(rareWithCommon).toBeLessThan(withCommon);
  });

  it("are the same texts whatever the vector distribution", () => {
    const sparse = createCorpus({ size: SIZE, dimensions: DIMS, seed: 7, text: "common", vectors: "sparse" });
    expect(sparse.queries(50, { style: "typed", salt: 1 }).map((q) => q.text)).toEqual(
      queries.slice(0, 50).map((q) => q.text),
    );
  });
});

describe("word-derived vectors", () => {
  const anisotropic = createCorpus({
    size: SIZE,
    dimensions: DIMS,
    seed: 7,
    text: "common",
    vectors: "anisotropic",
  });
  const sparse = createCorpus({ size: SIZE, dimensions: DIMS, seed: 7, text: "common", vectors: "sparse" });

  it("anisotropic: unrelated entries average cosine ≈ 0.6", () => {
    // Entries 1000+ were not among the 512 the offset was scaled on.
    let sum = 0;
    for (let i = 0; i < 300; i++) {
      const a = anisotropic.vectorAt(1_000 + 2 * i);
      const b = anisotropic.vectorAt(1_001 + 2 * i);
      expect(norm(a)).toBeCloseTo(1, 5);
      sum += dot(a, b);
    }
    expect(sum / 300).toBeGreaterThan(0.5);
    expect(sum / 300).toBeLessThan(0.7);
  });

  it("anisotropic: a query is nearer its target (whose words it shares) than unrelated entries", () => {
    const queries = anisotropic.queries(100, { style: "typed" });
    let toTarget = 0;
    let toOther = 0;
    for (const [i, q] of queries.entries()) {
      expect(norm(q.vector)).toBeCloseTo(1, 5);
      toTarget += dot(q.vector, anisotropic.vectorAt(q.target));
      toOther += dot(q.vector, anisotropic.vectorAt((q.target + 1 + i * 7) % SIZE));
    }
    expect(toTarget / 100).toBeGreaterThan(toOther / 100 + 0.02);
  });

  it("sparse: non-negative, unit length, one bucket per distinct word at most", () => {
    for (let i = 0; i < 200; i++) {
      const v = sparse.vectorAt(i);
      expect(v.every((x) => x >= 0)).toBe(true);
      expect(norm(v)).toBeCloseTo(1, 5);
      const nonZero = v.filter((x) => x > 0).length;
      expect(nonZero).toBeGreaterThan(0);
      expect(nonZero).toBeLessThanOrEqual(new Set(sparse.wordsAt(i)).size);
    }
    for (const q of sparse.queries(50, { style: "typed" })) expect(q.vector.every((x) => x >= 0)).toBe(true);
  });

  it("is deterministic per seed and index, and differs for another seed", () => {
    for (const vectors of ["anisotropic", "sparse"] as const) {
      const again = createCorpus({ size: SIZE, dimensions: DIMS, seed: 7, text: "common", vectors });
      const other = createCorpus({ size: SIZE, dimensions: DIMS, seed: 8, text: "common", vectors });
      const first = vectors === "sparse" ? sparse : anisotropic;
      // A vector depends on (seed, index) only: not on the corpus size nor on what came before.
      const small = createCorpus({ size: 10, dimensions: DIMS, seed: 7, text: "common", vectors });
      expect(Array.from(small.vectorAt(1_234))).toEqual(Array.from(first.vectorAt(1_234)));
      for (const i of [0, 17, 1_999, SIZE + 5]) {
        expect(Array.from(again.vectorAt(i))).toEqual(Array.from(first.vectorAt(i)));
        expect(Array.from(other.vectorAt(i))).not.toEqual(Array.from(first.vectorAt(i)));
      }
      expect(Array.from(first.fillVectors(10, 3).subarray(DIMS, 2 * DIMS))).toEqual(
        Array.from(first.vectorAt(11)),
      );
      const q = again.queries(5, { style: "typed" });
      expect(q.map((x) => Array.from(x.vector))).toEqual(
        first.queries(5, { style: "typed" }).map((x) => Array.from(x.vector)),
      );
    }
  });

  it("sparse: embeds a query from its words, so it overlaps its target", () => {
    for (const q of sparse.queries(100, { style: "typed" })) {
      const words = q.text.split(" ").length;
      expect(q.vector.filter((x) => x > 0).length).toBeLessThanOrEqual(words);
      expect(dot(q.vector, sparse.vectorAt(q.target))).toBeGreaterThan(0);
    }
  });
});
