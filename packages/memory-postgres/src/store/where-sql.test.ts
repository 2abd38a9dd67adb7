import { whereOf } from "@claw/memory-core";
import { describe, expect, it } from "vitest";
import { forEachTestDatabase } from "../test-support/test-database.js";
import { SqlParams } from "./filter-sql.js";
import { whereSql } from "./where-sql.js";

const ROWS: Array<[string, unknown]> = [
  ["alpha", { project: "alpha", priority: 3, done: false, owner: { team: "core" }, tags: ["a"] }],
  ["beta", { project: "beta", priority: 1, done: true, owner: { team: "web" } }],
  ["one-as-text", { project: "alpha", priority: "3" }],
  ["null-project", { project: null }],
  ["no-metadata", null],
  ["empty", {}],
  ["accented", { project: "Äpfel" }],
];

forEachTestDatabase((database) => {
  async function matching(where: unknown): Promise<string[]> {
    const schema = database().newSchema();
    await database().query(`CREATE SCHEMA "${schema}"`);
    await database().query(`CREATE TABLE "${schema}".t (key text, metadata jsonb)`);
    for (const [key, metadata] of ROWS) {
      await database().query(`INSERT INTO "${schema}".t VALUES ($1, $2::jsonb)`, [
        key,
        metadata === null ? null : JSON.stringify(metadata),
      ]);
    }
    const params = new SqlParams();
    const sql = whereSql(whereOf(where), params);
    const { rows } = await database().query(
      `SELECT key FROM "${schema}".t AS m WHERE true${sql} ORDER BY key COLLATE "C"`,
      params.values,
    );
    if (database().kind === "pglite") await database().query(`DROP SCHEMA "${schema}" CASCADE`);
    return rows.map((r) => r.key as string);
  }

  describe("whereSql on PostgreSQL: the same answers as on SQLite", () => {
    it('equality is typed: a JSON 3 is not "3", false is not 0, null is not missing', async () => {
      expect(await matching({ project: "alpha" })).toEqual(["alpha", "one-as-text"]);
      expect(await matching({ priority: 3 })).toEqual(["alpha"]);
      expect(await matching({ priority: "3" })).toEqual(["one-as-text"]);
      expect(await matching({ done: false })).toEqual(["alpha"]);
      expect(await matching({ done: 0 })).toEqual([]);
      expect(await matching({ project: null })).toEqual(["null-project"]);
      expect(await matching({ "owner.team": "web" })).toEqual(["beta"]);
    });

    it("$ne and $nin also match entries without the field; the others never do", async () => {
      expect(await matching({ project: { $ne: "alpha" } })).toEqual([
        "accented",
        "beta",
        "empty",
        "no-metadata",
        "null-project",
      ]);
      expect(await matching({ project: { $nin: ["alpha", null, "Äpfel"] } })).toEqual([
        "beta",
        "empty",
        "no-metadata",
      ]);
      expect(await matching({ project: { $in: ["beta", null] } })).toEqual(["beta", "null-project"]);
      expect(await matching({ project: { $in: [] } })).toEqual([]);
      expect(await matching({ project: { $nin: [] } })).toHaveLength(ROWS.length);
    });

    it("ranges compare numbers with numbers and strings with strings, in code-point order", async () => {
      expect(await matching({ priority: { $gt: 1 } })).toEqual(["alpha"]);
      expect(await matching({ priority: { $gte: 1, $lt: 3 } })).toEqual(["beta"]);
      expect(await matching({ priority: { $gte: "3" } })).toEqual(["one-as-text"]);
      expect(await matching({ project: { $gt: "alpha" } })).toEqual(["accented", "beta"]);
      expect(await matching({ project: { $gt: "z" } })).toEqual(["accented"]);
    });

    it("$exists tells a present field (null included) from a missing one; fields AND together", async () => {
      expect(await matching({ project: { $exists: true } })).toEqual([
        "accented",
        "alpha",
        "beta",
        "null-project",
        "one-as-text",
      ]);
      expect(await matching({ project: { $exists: false } })).toEqual(["empty", "no-metadata"]);
      expect(await matching({ project: "alpha", done: { $exists: true } })).toEqual(["alpha"]);
    });
  });
});
