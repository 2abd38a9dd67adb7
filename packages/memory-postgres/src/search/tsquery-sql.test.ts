// The tsquery a keyword search matches on, as PostgreSQL builds it from the bound terms.
import { describe, expect, it } from "vitest";
import { SqlParams } from "../store/sql-params.js";
import { forEachTestDatabase } from "../test-support/test-database.js";
import { allTermsSql, idfShareSql, tsQuerySql } from "./tsquery-sql.js";

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

  describe("idfShareSql", () => {
    async function share(text: string, terms: string[], weights: number[]): Promise<number | null> {
      const params = new SqlParams();
      const column = `to_tsvector('simple', ${params.add(text)}) || to_tsvector('english', ${params.add(text)})`;
      const sql = idfShareSql(terms, weights, "english", params, "(SELECT v FROM e)");
      if (sql === null) return null;
      const { rows } = await database().query(
        `WITH e AS (SELECT ${column} AS v), q AS (SELECT ${sql.columns}) SELECT ${sql.share} AS s FROM q`,
        params.values,
      );
      return Number(rows[0]?.s);
    }

    it("is the share of the weights of the terms an entry holds, each in either form", async () => {
      expect(await share("She runs green tea farms", ["running", "coffee"], [3, 1])).toBeCloseTo(0.75, 12);
      expect(await share("She runs green tea farms", ["tea", "farms", "coffee"], [1, 1, 2])).toBeCloseTo(
        0.5,
        12,
      );
      expect(await share("nothing here", ["tea", "coffee"], [1, 1])).toBe(0);
    });

    it("is null for one term or no weight, which would rank nothing", async () => {
      expect(await share("green tea", ["tea"], [2])).toBeNull();
      expect(await share("green tea", ["tea", "green"], [0, 0])).toBeNull();
    });
  });
});
