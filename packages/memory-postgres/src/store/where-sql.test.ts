import { whereOf } from "@claw/memory-core";
import { WHERE_CASES, WHERE_ROWS } from "@claw/memory-core/testkit";
import { beforeAll, describe, expect, it } from "vitest";
import { forEachTestDatabase } from "../test-support/test-database.js";
import { SqlParams } from "./filter-sql.js";
import { whereSql } from "./where-sql.js";

forEachTestDatabase((database) => {
  describe("whereSql on PostgreSQL keeps what the shared table of cases says", () => {
    let table = "";
    beforeAll(async () => {
      const schema = database().newSchema();
      table = `"${schema}".t`;
      await database().query(`CREATE SCHEMA "${schema}"`);
      await database().query(`CREATE TABLE ${table} (key text, metadata jsonb)`);
      for (const [key, metadata] of WHERE_ROWS) {
        await database().query(`INSERT INTO ${table} VALUES ($1, $2::jsonb)`, [
          key,
          metadata === null ? null : JSON.stringify(metadata),
        ]);
      }
    });

    it.each(WHERE_CASES)("$name", async ({ where, keys }) => {
      const params = new SqlParams();
      const sql = whereSql(whereOf(where), params);
      const { rows } = await database().query(
        `SELECT key FROM ${table} AS m WHERE true${sql} ORDER BY key COLLATE "C"`,
        params.values,
      );
      expect(rows.map((r) => r.key)).toEqual(keys);
    });
  });
});
