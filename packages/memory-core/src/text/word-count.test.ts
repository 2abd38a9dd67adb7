import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { moreWordsThan, WORD_SEPARATORS, wordCount } from "./word-count.js";

describe("moreWordsThan", () => {
  it("counts runs of letters, digits and apostrophes", () => {
    expect(moreWordsThan("don't stop-me now 42", 4)).toBe(true);
    expect(moreWordsThan("don't stop-me now 42", 5)).toBe(false);
    expect(moreWordsThan("a ".repeat(100), 99)).toBe(true);
    expect(moreWordsThan("a ".repeat(100), 100)).toBe(false);
  });

  it("agrees with splitting on the separators, ASCII or not", () => {
    const text = fc.string({
      unit: fc.constantFrom("a", "Z", "9", "'", " ", "-", "\n", "é", "ß", "_", "\u0010"),
      maxLength: 80,
    });
    fc.assert(
      fc.property(text, fc.integer({ min: 0, max: 30 }), (t, n) => {
        const words = t.split(WORD_SEPARATORS).filter((w) => w !== "").length;
        expect(moreWordsThan(t, n)).toBe(words > n);
      }),
      { numRuns: 500 },
    );
  });
});

describe("wordCount", () => {
  it("counts words as moreWordsThan does, ASCII or not", () => {
    const text = fc.string({
      unit: fc.constantFrom("a", "Z", "9", "'", " ", "-", "\n", "é", "ß", "_"),
      maxLength: 80,
    });
    fc.assert(
      fc.property(text, fc.integer({ min: 0, max: 30 }), (t, n) => {
        expect(wordCount(t) > n).toBe(moreWordsThan(t, n));
      }),
      { numRuns: 500 },
    );
  });

  it("counts each CJK character as a word, and a Latin run beside them as one more", () => {
    expect(wordCount("数据库很快")).toBe(5);
    expect(wordCount("数据库abc 好")).toBe(5);
    expect(wordCount("東京タワー is tall")).toBe(7);
  });
});
