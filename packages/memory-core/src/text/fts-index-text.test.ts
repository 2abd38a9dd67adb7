import { describe, expect, it } from "vitest";
import { toFtsIndexText } from "./tokenizer.js";

describe("toFtsIndexText", () => {
  it("is null for content without CJK", () => {
    expect(toFtsIndexText("The deploy runs on Fridays.")).toBeNull();
    expect(toFtsIndexText("")).toBeNull();
  });

  it("replaces a Chinese sentence by its bigrams", () => {
    expect(toFtsIndexText("我喜欢吃苹果")).toBe("我喜 喜欢 欢吃 吃苹 苹果");
  });

  it("keeps Latin text and separates it from the bigrams", () => {
    expect(toFtsIndexText("I love苹果pie")).toBe("I love 苹果 pie");
  });

  it("keeps existing spacing, punctuation and case of non-CJK text", () => {
    expect(toFtsIndexText("Note: 東京 is BIG.\nNext")).toBe("Note: 東京 is BIG.\nNext");
  });

  it("handles runs split by CJK punctuation separately", () => {
    expect(toFtsIndexText("苹果。香蕉")).toBe("苹果 。 香蕉");
  });

  it("keeps a single CJK character as its own token", () => {
    expect(toFtsIndexText("A猫B")).toBe("A 猫 B");
  });

  it("normalises half-width katakana like the query side does", () => {
    expect(toFtsIndexText("ｶﾞｲﾄﾞ")).toBe("ガイ イド");
  });

  it("turns Japanese kana into bigrams", () => {
    expect(toFtsIndexText("ないようです")).toBe("ない いよ よう うで です");
  });
});

describe("toFtsIndexText on large content", () => {
  it("indexes a long mixed document line by line (its speed is measured in benchmarks/)", () => {
    const doc = Array.from({ length: 20_000 }, (_, i) => `line ${i} 苹果 words`).join("\n");
    const indexed = toFtsIndexText(doc) ?? "";
    expect(indexed.split("\n")).toHaveLength(20_000);
    expect(indexed.startsWith("line 0 苹果 words\nline 1 ")).toBe(true);
  });
});
