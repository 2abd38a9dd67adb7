import { describe, expect, it } from "vitest";
import { scoreImportance } from "./importance.js";

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
  ])("%j in %s → %s", (content, category, expected) => {
    expect(scoreImportance(content, category)).toBe(expected);
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
