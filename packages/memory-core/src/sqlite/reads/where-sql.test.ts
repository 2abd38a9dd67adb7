import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { whereOf } from "../../metadata/where-filter.js";
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

function matching(where: unknown): string[] {
  const db = new Database(":memory:");
  db.exec("CREATE TABLE memories (key TEXT, metadata TEXT)");
  const insert = db.prepare("INSERT INTO memories VALUES (?, ?)");
  for (const [key, metadata] of ROWS) insert.run(key, metadata === null ? null : JSON.stringify(metadata));
  const { sql, params } = whereSql(whereOf(where));
  const keys = db
    .prepare(`SELECT key FROM memories AS m WHERE 1 = 1${sql} ORDER BY key`)
    .pluck()
    .all(...params);
  db.close();
  return keys as string[];
}

describe("whereSql on SQLite", () => {
  it('equality is typed: a JSON 3 is not "3", false is not 0, null is not missing', () => {
    expect(matching({ project: "alpha" })).toEqual(["alpha", "one-as-text"]);
    expect(matching({ priority: 3 })).toEqual(["alpha"]);
    expect(matching({ priority: "3" })).toEqual(["one-as-text"]);
    expect(matching({ done: false })).toEqual(["alpha"]);
    expect(matching({ done: 0 })).toEqual([]);
    expect(matching({ project: null })).toEqual(["null-project"]);
    expect(matching({ "owner.team": "web" })).toEqual(["beta"]);
  });

  it("$ne and $nin also match entries without the field; the others never do", () => {
    expect(matching({ project: { $ne: "alpha" } })).toEqual([
      "accented",
      "beta",
      "empty",
      "no-metadata",
      "null-project",
    ]);
    expect(matching({ project: { $nin: ["alpha", null, "Äpfel"] } })).toEqual([
      "beta",
      "empty",
      "no-metadata",
    ]);
    expect(matching({ project: { $in: ["beta", null] } })).toEqual(["beta", "null-project"]);
    expect(matching({ project: { $in: [] } })).toEqual([]);
    expect(matching({ project: { $nin: [] } })).toHaveLength(ROWS.length);
  });

  it("ranges compare numbers with numbers and strings with strings", () => {
    expect(matching({ priority: { $gt: 1 } })).toEqual(["alpha"]);
    expect(matching({ priority: { $gte: 1, $lt: 3 } })).toEqual(["beta"]);
    expect(matching({ priority: { $gte: "3" } })).toEqual(["one-as-text"]);
    expect(matching({ project: { $gt: "alpha" } })).toEqual(["accented", "beta"]);
    expect(matching({ project: { $gt: "z" } })).toEqual(["accented"]);
  });

  it("$exists tells a present field (null included) from a missing one; fields AND together", () => {
    expect(matching({ project: { $exists: true } })).toEqual([
      "accented",
      "alpha",
      "beta",
      "null-project",
      "one-as-text",
    ]);
    expect(matching({ project: { $exists: false } })).toEqual(["empty", "no-metadata"]);
    expect(matching({ project: "alpha", done: { $exists: true } })).toEqual(["alpha"]);
    expect(matching({ tags: { $exists: true } })).toEqual(["alpha"]);
  });
});
