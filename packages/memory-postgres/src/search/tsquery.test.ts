import { ftsTermsOf } from "@claw/memory-core";
import { describe, expect, it } from "vitest";
import { SqlParams } from "../store/sql-params.js";
import { forEachTestDatabase } from "../test-support/test-database.js";
import { tsQueryText } from "./tsquery.js";
import { tsQuerySql } from "./tsquery-sql.js";

/** The tsquery text of a query as typed. */
const buildTsQuery = (query: string, prefix = false) => tsQueryText(ftsTermsOf(query), prefix);

describe("tsQueryText", () => {
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
    expect(buildTsQuery("deplo ab don't", true)).toBe("'deplo':* | 'ab' | 'don''t'");
  });
});

forEachTestDatabase((database) => {
  describe("the search tsquery of hostile text", () => {
    it.each([
      ['"ship it" NEAR('],
      ["a & b | !c <-> d:* (e)"],
      ["'; DROP TABLE x; --"],
      ["it's O'Reilly's \\ back\\slash"],
      ["ｆｕｌｌｗｉｄｔｈ Ⅻ ﬁ"],
      ["東京の天気は晴れです 저는 서울에서"],
      ["x\u0000y\u001b[31m"],
    ])("%j parses under 'simple' and 'english'", async (query) => {
      const terms = ftsTermsOf(query);
      const params = new SqlParams();
      const sql = tsQuerySql(terms.length > 0 ? terms : ["x"], "english", params);
      const { rows } = await database().query(`SELECT (${sql})::text AS q`, params.values);
      expect(typeof rows[0]?.q).toBe("string");
    });
  });
});
