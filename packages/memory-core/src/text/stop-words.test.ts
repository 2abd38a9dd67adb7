import { describe, expect, it } from "vitest";
import { isStopWord, STOP_WORDS } from "./stop-words.js";
import { STOP_WORDS as REEXPORTED } from "./tokenizer.js";

describe("STOP_WORDS", () => {
  it("is a compact list", () => {
    expect(STOP_WORDS.size).toBeGreaterThanOrEqual(100);
    expect(STOP_WORDS.size).toBeLessThanOrEqual(160);
  });

  it.each(["not", "no", "never", "nor", "without", "don't", "cannot", "must"])(
    "leaves out %j, which changes meaning",
    (word) => {
      expect(isStopWord(word)).toBe(false);
    },
  );

  it.each([
    "the",
    "a",
    "an",
    "i",
    "my",
    "they",
    "is",
    "was",
    "did",
    "does",
    "what",
    "when",
    "where",
    "who",
    "how",
    "which",
    "about",
    "and",
    "or",
    "i'm",
  ])("contains %j", (word) => {
    expect(isStopWord(word)).toBe(true);
  });

  it("holds only lower-case tokens as tokenizeWords produces them", () => {
    for (const word of STOP_WORDS) expect(word).toMatch(/^[a-z']+$/);
    expect(isStopWord("The")).toBe(false);
  });

  it("is re-exported from the tokenizer", () => {
    expect(REEXPORTED).toBe(STOP_WORDS);
  });
});
