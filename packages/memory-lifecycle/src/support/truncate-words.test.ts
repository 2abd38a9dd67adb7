import { describe, expect, it } from "vitest";
import { truncateAtWord } from "./truncate-words.js";

describe("truncateAtWord", () => {
  it("keeps short text as it is", () => {
    expect(truncateAtWord("short text", 50)).toBe("short text");
  });

  it("cuts at the last word boundary and marks the cut", () => {
    expect(truncateAtWord("The user moved to Berlin in March and works remotely", 30)).toBe(
      "The user moved to Berlin in…",
    );
  });

  it("counts characters, not bytes or UTF-16 units", () => {
    const text = "Ünïcödé wörds everywhere äöü";
    expect(truncateAtWord(text, text.length)).toBe(text);
    const emoji = "👍🏽👍🏽👍🏽👍🏽 done";
    expect(truncateAtWord(emoji, 9)).toBe(emoji);
    expect(truncateAtWord(emoji, 4)).toBe("👍🏽👍🏽👍🏽…");
  });

  it("cuts text without spaces at the character limit", () => {
    expect(truncateAtWord("我喜欢在周末去山里徒步旅行", 6)).toBe("我喜欢在周…");
  });
});
