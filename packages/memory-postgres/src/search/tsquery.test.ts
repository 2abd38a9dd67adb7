import { describe, expect, it } from "vitest";
import { forEachTestDatabase } from "../test-support/test-database.js";
import { buildTsQuery } from "./tsquery.js";

describe("buildTsQuery", () => {
  it.each([
    ["The user prefers TypeScript", "'user' | 'prefers' | 'typescript'"],
    ["don't panic", "'don''t' | 'panic'"],
    ["苹果", "'苹果'"],
    ["喜欢吃苹果", "( '喜欢' | '欢吃' | '吃苹' | '苹果' )"],
    ["我喜欢吃", "'我喜 喜欢 欢吃'"],
    ["苹", "'苹':*"],
    ["项目使用TypeScript", "'项目 目使 使用' | 'typescript'"],
    ["", null],
    ["!!! ((( :*", null],
  ])("%j → %s", (query, expected) => {
    expect(buildTsQuery(query)).toBe(expected);
  });

  it("adds prefixes to Latin terms of 3+ characters without apostrophes", () => {
    expect(buildTsQuery("deplo ab don't", { prefix: true })).toBe("'deplo':* | 'ab' | 'don''t'");
  });
});

forEachTestDatabase((database) => {
  describe("buildTsQuery output", () => {
    it.each([
      ['"ship it" NEAR('],
      ["a & b | !c <-> d:* (e)"],
      ["'; DROP TABLE x; --"],
      ["it's O'Reilly's \\ back\\slash"],
      ["ｆｕｌｌｗｉｄｔｈ Ⅻ ﬁ"],
      ["東京の天気は晴れです 저는 서울에서"],
      ["x\u0000y\u001b[31m"],
    ])("%j parses under 'simple' and 'english'", async (query) => {
      const text = buildTsQuery(query) ?? buildTsQuery("x");
      const { rows } = await database().query(
        "SELECT (to_tsquery('simple', $1) || to_tsquery('english', $1))::text AS q",
        [text],
      );
      expect(typeof rows[0]?.q).toBe("string");
    });
  });
});
