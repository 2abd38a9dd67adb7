// Property-based: rowFilter() keeps exactly the rows filterSql() keeps, for any filter without
// metadata conditions; with them it declines.
import type { EntryFilter } from "@claw/memory-api";
import Database from "better-sqlite3";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { type FilteredRow, filterSql, rowFilter } from "./filter-sql.js";

const TIMES = ["2025-01-01T00:00:00.000Z", "2025-06-30T12:00:00.000Z", "2026-01-01T00:00:00.000Z"];
const time = fc.constantFrom(...TIMES, "2025-06-30T12:00:00.001Z", "+010000-01-01T00:00:00.000Z");
const maybe = <T>(value: fc.Arbitrary<T>) => fc.option(value, { nil: null });

const row = fc.record({
  namespace: fc.constantFrom("default", "team", "*"),
  session_id: maybe(fc.constantFrom("s1", "s2")),
  updated_at: time,
  category: fc.constantFrom("core", "daily", "decision"),
  superseded_by: maybe(fc.constantFrom("id-1")),
  expires_at: maybe(time),
});

const filter: fc.Arbitrary<EntryFilter> = fc.record(
  {
    namespace: fc.constantFrom("default", "team", "*", "none"),
    sessionId: fc.constantFrom("s1", "s2"),
    since: time,
    until: time,
    categories: fc.subarray(["core", "daily", "decision", "other"]),
    includeSuperseded: fc.boolean(),
    aliveAt: time,
  },
  { requiredKeys: [] },
);

describe("rowFilter", () => {
  const db = new Database(":memory:");
  afterAll(() => {
    db.close();
  });
  db.exec(`CREATE TABLE memories (rid INTEGER PRIMARY KEY, namespace TEXT, session_id TEXT,
    updated_at TEXT, category TEXT, superseded_by TEXT, expires_at TEXT, metadata TEXT)`);
  const insert = db.prepare(`INSERT INTO memories (namespace, session_id, updated_at, category, superseded_by,
    expires_at) VALUES (@namespace, @session_id, @updated_at, @category, @superseded_by, @expires_at)`);

  it("keeps the rows filterSql keeps", () => {
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 30 }), filter, (rows, filter) => {
        db.exec("DELETE FROM memories");
        const rids = rows.map((r) => Number(insert.run(r).lastInsertRowid));
        const where = filterSql(filter);
        const bySql = db
          .prepare(`SELECT rid FROM memories m WHERE 1 = 1${where.sql} ORDER BY rid`)
          .pluck()
          .all(...where.params);
        const passes = rowFilter(filter);
        expect(passes).not.toBeNull();
        const byRow = rids.filter((_, i) => passes?.(rows[i] as FilteredRow));
        expect(byRow).toEqual(bySql);
      }),
      { numRuns: 300 },
    );
  });

  it("declines a filter on metadata, which only SQL tests", () => {
    expect(
      rowFilter({ namespace: "default", where: [{ op: "eq", path: ["tier"], value: "gold" }] }),
    ).toBeNull();
    expect(rowFilter({ namespace: "default", where: [] })).not.toBeNull();
  });
});
