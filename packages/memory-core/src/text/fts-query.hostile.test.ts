import { describe, expect, it } from "vitest";
import { buildFtsQuery, ftsTermsOf } from "./fts-query.js";

describe("buildFtsQuery on hostile input", () => {
  it.each([
    ['"', null],
    ['""""', null],
    ['say "hi"', '"say" OR "hi"'],
    ["a AND", '"a" OR "and"'],
    ["cats AND dogs", '"cats" OR "dogs"'],
    ["OR", '"or"'],
    ["NOT secrets", '"not" OR "secrets"'],
    ["NEAR(", '"near"'],
    ["NEAR(a b, 2)", '"near" OR "b" OR "2"'],
    ["col:x", '"col" OR "x"'],
    ["body:secret", '"body" OR "secret"'],
    ["*", null],
    ["deploy*", '"deploy"'],
    ["^", null],
    ["^start", '"start"'],
    ["(((", null],
    ["(x OR y))", '"x" OR "y"'],
    ["(a OR b))", '"b"'],
    ["-excluded +required", '"excluded" OR "required"'],
    ["'); DROP TABLE memories; --", '"drop" OR "table" OR "memories"'],
    ["{body title}: x", '"body" OR "title" OR "x"'],
    ["a\u0000b", '"b"'],
    ["foo\u0000bar", '"foo" OR "bar"'],
    ["\u0000\u0001\u001f\u007f", null],
    ["secret\u0000; DROP", '"secret" OR "drop"'],
  ])("%j → %j", (query, expected) => {
    expect(buildFtsQuery(query)).toBe(expected);
  });

  it("never lets control characters into the expression", () => {
    const query = buildFtsQuery("x\u0000y\u0008z\u001b[31m") ?? "";
    expect(query).not.toMatch(/\p{Cc}/u);
    expect(query).toBe('"x" OR "y" OR "z" OR "31m"');
  });

  it("emits only quoted terms joined by OR", () => {
    const hostile = `"a" OR b* NEAR(c d) col:e ^f (g) -h +i 'j' {k} [l] "m"" \\n`;
    const query = buildFtsQuery(hostile, { prefix: true }) ?? "";
    // Every term is "…" (no inner quote possible) optionally followed by *, separated by " OR ".
    expect(query).toMatch(/^"[^"]+"\*?(?: OR "[^"]+"\*?)*$/u);
  });
});

describe("buildFtsQuery on a 1 MB query", () => {
  const megabyte = (unit: string): string => unit.repeat(Math.ceil(1_048_576 / unit.length));

  it("varied words: returns the first 24 terms quickly", () => {
    const words = Array.from({ length: 200_000 }, (_, i) => `w${i}`).join(" ");
    const query = buildFtsQuery(words) ?? "";
    const terms = query.split(" OR ");
    expect(terms).toHaveLength(24);
    expect(terms[0]).toBe('"w0"');
    expect(terms[23]).toBe('"w23"');
  });

  it("one repeated word: returns a single term", () => {
    expect(buildFtsQuery(megabyte("deploy "))).toBe('"deploy"');
  });

  it("only stop words: returns fewer than maxTerms terms", () => {
    const query = buildFtsQuery(megabyte("the a of is it "));
    expect(query).toBe('"the" OR "a" OR "of" OR "is" OR "it"');
    expect(query?.split(" OR ").length).toBeLessThan(24);
  });

  it("punctuation and operators only: null", () => {
    expect(buildFtsQuery(megabyte('"*^():-+ '))).toBeNull();
  });

  it("one giant token: bounded output", () => {
    const query = buildFtsQuery("x".repeat(1_048_576)) ?? "";
    expect(query.length).toBeLessThanOrEqual(8192 + 2);
    expect(query.startsWith('"xxx')).toBe(true);
  });

  it("ftsTermsOf stays bounded too", () => {
    const terms = ftsTermsOf(megabyte("alpha beta gamma "));
    expect(terms).toEqual(["alpha", "beta", "gamma"]);
  });
});
