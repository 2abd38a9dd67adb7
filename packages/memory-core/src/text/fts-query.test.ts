import { isMemoryError } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { buildFtsQuery, DEFAULT_MAX_FTS_TERMS, ftsTermsOf } from "./fts-query.js";

describe("buildFtsQuery", () => {
  it("quotes each term and ORs them", () => {
    expect(buildFtsQuery("deploy pipeline")).toBe('"deploy" OR "pipeline"');
  });

  it("drops stop words but the first-person ones", () => {
    expect(buildFtsQuery("What did we decide about the deploy pipeline?")).toBe(
      '"decide" OR "deploy" OR "pipeline"',
    );
    expect(buildFtsQuery("What did I decide about my deploy pipeline?")).toBe(
      '"i" OR "decide" OR "my" OR "deploy" OR "pipeline"',
    );
    expect(ftsTermsOf("Tell me what you and we said")).toEqual(["tell", "me", "said"]);
  });

  it("keeps stop words when the query has nothing else", () => {
    expect(buildFtsQuery("who is it")).toBe('"who" OR "is" OR "it"');
  });

  it("keeps negations, which are not stop words", () => {
    expect(buildFtsQuery("they do not like coffee")).toBe('"not" OR "like" OR "coffee"');
    expect(buildFtsQuery("never no")).toBe('"never" OR "no"');
  });

  it("removes duplicates, case-insensitively, keeping the first position", () => {
    expect(buildFtsQuery("Coffee tea COFFEE tea milk")).toBe('"coffee" OR "tea" OR "milk"');
  });

  it("keeps at most maxTerms terms, the first ones", () => {
    expect(buildFtsQuery("alpha beta gamma delta", { maxTerms: 2 })).toBe('"alpha" OR "beta"');
  });

  it("defaults to 24 terms", () => {
    const words = Array.from({ length: 40 }, (_, i) => `word${i}`).join(" ");
    const query = buildFtsQuery(words) ?? "";
    expect(query.split(" OR ")).toHaveLength(DEFAULT_MAX_FTS_TERMS);
    expect(query.endsWith('"word23"')).toBe(true);
  });

  it("returns null when nothing searchable remains", () => {
    expect(buildFtsQuery("")).toBeNull();
    expect(buildFtsQuery("   ")).toBeNull();
    expect(buildFtsQuery("?!... --- ***")).toBeNull();
    expect(buildFtsQuery("🎉🎉")).toBeNull();
  });

  it("keeps an apostrophe word as one quoted term", () => {
    expect(buildFtsQuery("don't panic")).toBe(`"don't" OR "panic"`);
  });
});

describe("buildFtsQuery with prefix", () => {
  it("adds * after Latin terms of three or more characters", () => {
    expect(buildFtsQuery("deploy go api", { prefix: true })).toBe('"deploy"* OR "go" OR "api"*');
  });

  it("counts characters, not bytes", () => {
    expect(buildFtsQuery("éa ßüx", { prefix: true })).toBe('"éa" OR "ßüx"*');
  });

  it("leaves apostrophe terms exact", () => {
    expect(buildFtsQuery("won't deploy", { prefix: true })).toBe(`"won't" OR "deploy"*`);
  });

  it("does not add * without the option", () => {
    expect(buildFtsQuery("deploy")).toBe('"deploy"');
    expect(buildFtsQuery("deploy", { prefix: false })).toBe('"deploy"');
  });
});

describe("buildFtsQuery on CJK", () => {
  it("turns a two-character run into its single bigram", () => {
    expect(buildFtsQuery("苹果")).toBe('"苹果"');
  });

  it("turns a longer run into a phrase of consecutive bigrams", () => {
    expect(buildFtsQuery("我喜欢")).toBe('"我喜 喜欢"');
    // Longer runs are sentences: their bigrams are OR-ed instead of matched as one phrase.
    expect(buildFtsQuery("我喜欢吃苹果")).toBe('"我喜" OR "喜欢" OR "欢吃" OR "吃苹" OR "苹果"');
  });

  it("turns a single character into a prefix term", () => {
    expect(buildFtsQuery("苹")).toBe('"苹"*');
  });

  it("does not add a prefix to CJK phrases", () => {
    expect(buildFtsQuery("苹果", { prefix: true })).toBe('"苹果"');
  });

  it("mixes CJK runs and Latin words in query order", () => {
    expect(buildFtsQuery("We love苹果pie")).toBe('"love" OR "苹果" OR "pie"');
  });

  it("handles Japanese and Korean", () => {
    expect(buildFtsQuery("ないよう")).toBe('"ない いよ よう"');
    expect(buildFtsQuery("사과 좋아")).toBe('"사과" OR "좋아"');
  });
});

describe("ftsTermsOf", () => {
  it("returns unique non-stop terms with CJK runs whole", () => {
    expect(ftsTermsOf("What is the 苹果 price? The price!")).toEqual(["苹果", "price"]);
  });

  it("falls back to stop words like buildFtsQuery", () => {
    expect(ftsTermsOf("who is it")).toEqual(["who", "is", "it"]);
  });

  it("honours maxTerms", () => {
    expect(ftsTermsOf("a1 b2 c3", { maxTerms: 2 })).toEqual(["a1", "b2"]);
  });

  it("is empty for punctuation", () => {
    expect(ftsTermsOf("?!")).toEqual([]);
  });
});

describe("buildFtsQuery options validation", () => {
  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])("rejects maxTerms %s", (maxTerms) => {
    let caught: unknown;
    try {
      buildFtsQuery("deploy", { maxTerms });
    } catch (error) {
      caught = error;
    }
    expect(isMemoryError(caught, "INVALID_INPUT")).toBe(true);
    expect((caught as { field?: string }).field).toBe("maxTerms");
  });

  it("rejects a non-string query", () => {
    expect(() => buildFtsQuery(42 as unknown as string)).toThrow(/query/);
  });
});
