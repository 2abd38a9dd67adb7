import { describe, expect, it } from "vitest";
import { mulberry32 } from "../sqlite/vectors/random-rotation.js";
import { HIGH_SIGNAL_WORDS, scoreImportance } from "./importance.js";
import { tokenizeWords } from "./tokenizer.js";

/** The definition the regex implements: distinct signal words among the tokenizer's tokens. */
function byTokens(content: string, category: string): number {
  const found = new Set(tokenizeWords(content).filter((t) => HIGH_SIGNAL_WORDS.has(t)));
  return scoreImportance("", category) + Math.min(0.2, found.size * 0.1);
}

describe("scoreImportance", () => {
  it.each([
    // base per category
    ["The sky was grey today", "core", 0.7],
    ["The sky was grey today", "daily", 0.3],
    ["The sky was grey today", "conversation", 0.2],
    ["The sky was grey today", "project-notes", 0.4],
    ["", "core", 0.7],
    // one signal word
    ["Decision: use Postgres", "daily", 0.4],
    ["We ALWAYS squash merges", "conversation", 0.3],
    ["This is a hard rule.", "project-notes", 0.5],
    // two distinct words
    ["Important: never push to main", "core", 0.9],
    ["Critical requirement", "daily", 0.5],
    // the same word twice counts once
    ["never, never, never", "daily", 0.4],
    // the boost is capped at 0.2
    ["Policy rule: you must always follow this principle; it is critical", "daily", 0.5],
    ["Policy rule: you must always follow this principle; it is critical", "core", 0.9],
    // whole words only
    ["Follow the rules", "daily", 0.3],
    ["Pass the mustard", "daily", 0.3],
    ["Trip to Neverland", "daily", 0.3],
    ["decisions were made, policies written", "daily", 0.3],
    ["unimportant detail", "daily", 0.3],
    // punctuation and case around whole words
    ["must-have: (Always) RULE!", "conversation", 0.4],
    // the tokenizer's boundaries: "_" splits, an apostrophe inside a word joins, one around it not
    ["must_do", "daily", 0.4],
    ["the rule's scope", "daily", 0.3],
    ["say 'never' and \u2018rule\u2019", "daily", 0.5],
    ["don\u2019t, never", "daily", 0.4],
    // CJK next to a word ends it; a combining mark after it joins it; full-width letters count
    ["规则rule", "daily", 0.4],
    ["rule\u0301", "daily", 0.3],
    ["\uff2d\uff35\uff33\uff34", "daily", 0.4],
  ])("%j in %s → %s", (content, category, expected) => {
    expect(scoreImportance(content, category)).toBe(expected);
  });

  it("agrees with the tokenizer's whole words on generated text", () => {
    const pieces = [
      ...HIGH_SIGNAL_WORDS,
      "Rule",
      "MUST",
      "s",
      "x",
      "7",
      "_",
      "-",
      " ",
      "'",
      "\u2019",
      "\u0301",
      "\u3099",
      "\u30fc",
      "规",
      "ア",
      "é",
      "\uff2e",
      "\ud800",
      "😀",
    ];
    const random = mulberry32(7);
    for (let n = 0; n < 5000; n++) {
      let content = "";
      const length = 1 + Math.floor(random() * 8);
      for (let i = 0; i < length; i++) content += pieces[Math.floor(random() * pieces.length)];
      expect([content, scoreImportance(content, "daily")]).toEqual([content, byTokens(content, "daily")]);
    }
  });

  it("returns exactly 0.9 for core with a full boost, without float noise", () => {
    const score = scoreImportance("important decision", "core");
    expect(score).toBe(0.9);
    expect(String(score)).toBe("0.9");
  });

  it("never exceeds 1", () => {
    for (const category of ["core", "daily", "conversation", "other"]) {
      expect(scoreImportance("must always never critical rule policy", category)).toBeLessThanOrEqual(1);
    }
  });

  it("does not mistake Object prototype keys for categories", () => {
    expect(scoreImportance("plain", "toString")).toBe(0.4);
    expect(scoreImportance("plain", "__proto__")).toBe(0.4);
  });
});
