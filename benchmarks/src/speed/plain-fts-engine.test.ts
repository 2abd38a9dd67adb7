import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createCorpus } from "./corpus.js";
import { createPlainFts, plainFtsQuery } from "./plain-fts-engine.js";

describe("plain FTS5 form", () => {
  const dir = mkdtempSync(join(tmpdir(), "plain-fts-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("ORs the store's terms of a query, stop words dropped, each quoted", () => {
    expect(plainFtsQuery("The deploy of Project")).toBe('"deploy" OR "project"');
    expect(plainFtsQuery('say "hi"')).toBe('"say" OR "hi"');
    expect(plainFtsQuery("the of")).toBe('"the" OR "of"');
    expect(plainFtsQuery("  ")).toBeNull();
  });

  it("finds an entry by its words and measures how common a word is", () => {
    const corpus = createCorpus({ size: 500, dimensions: 8, seed: 3, text: "common" });
    const fts = createPlainFts(join(dir, "t.db"), corpus);
    try {
      const words = [...new Set(corpus.wordsAt(42))].slice(-3).join(" ");
      const hits = fts.search(words, 10);
      expect(hits.length).toBe(10);
      expect(hits).toContain(42);
      expect(fts.search("", 10)).toEqual([]);
      const top = corpus.vocabulary.words[0] as string;
      let holding = 0;
      for (let i = 0; i < 500; i++) if (corpus.wordsAt(i).includes(top)) holding++;
      expect(fts.documentShare(top)).toBeGreaterThanOrEqual(holding / 500);
      expect(fts.documentShare(top)).toBeGreaterThan(0.5);
    } finally {
      fts.close();
    }
  });
});
