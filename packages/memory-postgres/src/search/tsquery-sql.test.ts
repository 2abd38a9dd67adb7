// The tsquery a keyword search matches on, as PostgreSQL builds it from the bound terms.
import { describe, expect, it } from "vitest";
import { SqlParams } from "../store/sql-params.js";
import { forEachTestDatabase } from "../test-support/test-database.js";
import { allTermsSql, tsQuerySql } from "./tsquery-sql.js";

forEachTestDatabase((database) => {
  async function tsquery(build: (params: SqlParams) => string | null): Promise<string | null> {
    const params = new SqlParams();
    const sql = build(params);
    if (sql === null) return null;
    const { rows } = await database().query(`SELECT (${sql})::text AS q`, params.values);
    return rows[0]?.q as string;
  }

  /** The lexemes of a tsquery's text, sorted. */
  const lexemes = (text: string | null) => [...(text ?? "").matchAll(/'([^']+)'/g)].map((m) => m[1]).sort();

  describe("tsQuerySql", () => {
    it("names each lexeme of plain words once: the word and its stem", async () => {
      const text = await tsquery((p) => tsQuerySql(["running", "tea", "cats"], "english", p));
      expect(lexemes(text)).toEqual(["cat", "cats", "run", "running", "tea"]);
    });

    it("keeps to_tsquery's parse for CJK runs and prefixes", async () => {
      expect(await tsquery((p) => tsQuerySql(["我喜欢"], "english", p))).toBe(
        "'我喜' <-> '喜欢' | '我喜' <-> '喜欢'",
      );
      expect(lexemes(await tsquery((p) => tsQuerySql(["deploy"], "english", p, true)))).toEqual([
        "deploy",
        "deploy",
      ]);
    });

    it("is null for no terms; ANDs every term in either form", async () => {
      expect(await tsquery((p) => tsQuerySql([], "english", p))).toBeNull();
      expect(await tsquery((p) => allTermsSql(["running", "tea"], "english", p))).toBe(
        "( 'running' | 'run' ) & ( 'tea' | 'tea' )",
      );
    });
  });
});
