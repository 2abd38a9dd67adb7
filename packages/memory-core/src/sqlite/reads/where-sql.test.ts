import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { whereOf } from "../../metadata/where-filter.js";
import { WHERE_CASES, WHERE_ROWS } from "../../testkit/where-cases.js";
import { whereSql } from "./where-sql.js";

describe("whereSql on SQLite keeps what the shared table of cases says", () => {
  const db = new Database(":memory:");
  db.exec("CREATE TABLE memories (key TEXT, metadata TEXT)");
  const insert = db.prepare("INSERT INTO memories VALUES (?, ?)");
  for (const [key, metadata] of WHERE_ROWS)
    insert.run(key, metadata === null ? null : JSON.stringify(metadata));

  it.each(WHERE_CASES)("$name", ({ where, keys }) => {
    const { sql, params } = whereSql(whereOf(where));
    const kept = db
      .prepare(`SELECT key FROM memories AS m WHERE 1 = 1${sql} ORDER BY key`)
      .pluck()
      .all(...params);
    expect(kept).toEqual(keys);
  });
});
