import { describe, expect, it } from "vitest";
import { PASSAGE_WORDS } from "../text/word-count.js";
import { lengthFactorOf, wordsOf } from "./long-entry.js";

const words = (n: number) => ({ content: Array.from({ length: n }, (_, i) => `w${i}`).join(" ") });

describe("lengthFactorOf", () => {
  it("leaves an entry of one passage or less whole", () => {
    const factor = lengthFactorOf(0.5);
    expect(factor({ content: "short fact" })).toBe(1);
    expect(factor(words(PASSAGE_WORDS))).toBe(1);
  });

  it("scales a longer one by (passage / words)^exponent", () => {
    expect(lengthFactorOf(0.5)(words(4 * PASSAGE_WORDS))).toBeCloseTo(0.5, 12);
    expect(lengthFactorOf(1)(words(4 * PASSAGE_WORDS))).toBeCloseTo(0.25, 12);
    expect(lengthFactorOf(0.5)(words(PASSAGE_WORDS + 1))).toBeLessThan(1);
  });

  it("is 1 for every entry with exponent 0", () => {
    expect(lengthFactorOf(0)(words(10_000))).toBe(1);
  });

  it("counts CJK text by its characters", () => {
    const cjk = { content: "记忆".repeat(200) };
    expect(wordsOf(cjk)).toBe(400);
    expect(lengthFactorOf(0.5)(cjk)).toBeCloseTo(0.5, 12);
  });
});
