import { describe, expect, it } from "vitest";
import { cjkBigrams, containsCjk, isCjkChar, iterateWords, tokenizeWords } from "./tokenizer.js";

describe("isCjkChar", () => {
  it.each([
    ["中", true],
    ["㐀", true], // Han extension A
    ["𠀀", true], // Han extension B, a surrogate pair
    ["あ", true],
    ["カ", true],
    ["ー", true],
    ["ｶ", true], // half-width katakana
    ["한", true],
    ["ㄱ", true], // compatibility jamo
    ["a", false],
    ["é", false],
    ["1", false],
    ["、", false],
    ["。", false],
    ["・", false],
    ["", false],
    ["中文", false], // not a single character
  ])("%s → %s", (ch, expected) => {
    expect(isCjkChar(ch)).toBe(expected);
  });
});

describe("containsCjk", () => {
  it("finds a single CJK character in Latin text", () => {
    expect(containsCjk("deploy to 東京 region")).toBe(true);
  });

  it("is false for Latin, accents, digits and punctuation", () => {
    expect(containsCjk("Café déjà vu — 42 «quotes»")).toBe(false);
  });

  it("agrees with isCjkChar on every code point, lone surrogates included", () => {
    const disagree: number[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      const ch = String.fromCodePoint(cp);
      if (containsCjk(`a${ch}b`) !== isCjkChar(ch)) disagree.push(cp);
    }
    expect(disagree).toEqual([]);
  });
});

describe("tokenizeWords on English", () => {
  it("lower-cases and splits on spaces and punctuation", () => {
    expect(tokenizeWords("Hello, World! How's it going?")).toEqual([
      "hello",
      "world",
      "how's",
      "it",
      "going",
    ]);
  });

  it("keeps an apostrophe inside a word, typographic ones included", () => {
    expect(tokenizeWords("I don't and you don’t")).toEqual(["i", "don't", "and", "you", "don't"]);
  });

  it("drops apostrophes at word edges", () => {
    expect(tokenizeWords("'quoted' users' rock'n'roll")).toEqual(["quoted", "users", "rock'n'roll"]);
  });

  it("splits on underscores, hyphens, dots and slashes", () => {
    expect(tokenizeWords("snake_case kebab-case a.b/c")).toEqual([
      "snake",
      "case",
      "kebab",
      "case",
      "a",
      "b",
      "c",
    ]);
  });

  it("keeps letters and digits together", () => {
    expect(tokenizeWords("ES2022 v1.2 ipv6")).toEqual(["es2022", "v1", "2", "ipv6"]);
  });

  it("applies NFKC: full-width letters and ligatures become plain", () => {
    expect(tokenizeWords("ＡＢＣ ﬁle")).toEqual(["abc", "file"]);
  });

  it("keeps accented and non-Latin letters", () => {
    expect(tokenizeWords("Café Ünïcode Привет мир")).toEqual(["café", "ünïcode", "привет", "мир"]);
  });

  it("keeps a combining mark with its letter", () => {
    expect(tokenizeWords("cafe\u0301 x")).toEqual(["café", "x"]);
  });

  it("returns nothing for empty or punctuation-only text", () => {
    expect(tokenizeWords("")).toEqual([]);
    expect(tokenizeWords(" ... --- !!! ")).toEqual([]);
  });

  it("treats control characters and NUL as separators", () => {
    expect(tokenizeWords("foo\u0000bar\tbaz\u0007qux")).toEqual(["foo", "bar", "baz", "qux"]);
  });
});

describe("tokenizeWords on CJK", () => {
  it("separates a CJK run from adjacent Latin letters", () => {
    expect(tokenizeWords("I love苹果pie")).toEqual(["i", "love", "苹果", "pie"]);
  });

  it("keeps a Chinese sentence as one run and splits at CJK punctuation", () => {
    expect(tokenizeWords("我喜欢吃苹果。你呢？")).toEqual(["我喜欢吃苹果", "你呢"]);
  });

  it("keeps Japanese kana, kanji and the prolonged sound mark in one run", () => {
    expect(tokenizeWords("東京のラーメンが好き")).toEqual(["東京のラーメンが好き"]);
  });

  it("composes half-width katakana with its voiced mark", () => {
    expect(tokenizeWords("ｶﾞｲﾄﾞ")).toEqual(["ガイド"]);
  });

  it("splits Korean on spaces", () => {
    expect(tokenizeWords("나는 사과를 좋아해요")).toEqual(["나는", "사과를", "좋아해요"]);
  });

  it("does not attach digits to a CJK run", () => {
    expect(tokenizeWords("2024年3月")).toEqual(["2024", "年", "3", "月"]);
  });
});

describe("tokenizeWords at the edges of its rules", () => {
  // Each token is sliced out of the normalised text; ASCII is classified without a regex.
  it("keeps an apostrophe only between two letters, before a non-ASCII one too", () => {
    expect(tokenizeWords("l'été don't x' 'y")).toEqual(["l'été", "don't", "x", "y"]);
    expect(tokenizeWords("rock'n'roll 東京's")).toEqual(["rock'n'roll", "東京", "s"]);
  });

  it("keeps combining marks with the letter before them, never with CJK", () => {
    expect(tokenizeWords("İstanbul ÇAY")).toEqual(["i̇stanbul", "çay"]);
    expect(tokenizeWords("e\u0301t\u0301e 中\u0301文")).toEqual(["\u00e9t\u0301e", "中", "文"]);
  });

  it("splits on astral symbols, lone surrogates and ASCII punctuation", () => {
    expect(tokenizeWords("🎉a🎉b")).toEqual(["a", "b"]);
    expect(tokenizeWords("x\uD800y")).toEqual(["x", "y"]);
    expect(tokenizeWords("AbC_dEf-12.5")).toEqual(["abc", "def", "12", "5"]);
  });
});

describe("iterateWords", () => {
  it("can be stopped early", () => {
    const first: string[] = [];
    for (const token of iterateWords("one two three four")) {
      first.push(token);
      if (first.length === 2) break;
    }
    expect(first).toEqual(["one", "two"]);
  });
});

describe("cjkBigrams", () => {
  it("returns overlapping bigrams", () => {
    expect(cjkBigrams("我喜欢吃苹果")).toEqual(["我喜", "喜欢", "欢吃", "吃苹", "苹果"]);
  });

  it("returns a one-character run as is, and nothing for an empty one", () => {
    expect(cjkBigrams("苹")).toEqual(["苹"]);
    expect(cjkBigrams("")).toEqual([]);
  });

  it("counts by code point, not UTF-16 unit", () => {
    expect(cjkBigrams("𠀀𠀁中")).toEqual(["𠀀𠀁", "𠀁中"]);
  });
});
