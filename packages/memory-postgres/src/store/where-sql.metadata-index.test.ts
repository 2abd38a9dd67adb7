// `where` on PostgreSQL: $eq and $in are answered by the GIN index on metadata (migration 5).
import type { WhereFilter } from "@claw/memory-api";
import { whereOf } from "@claw/memory-core";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { forEachTestDatabase, type TestDatabase } from "../test-support/test-database.js";
import { openTestMemory } from "../test-support/test-memory.js";
import { SqlParams } from "./sql-params.js";
import { whereSql } from "./where-sql.js";

const ENTRIES = 2_000;

/**
 * The plan of the rows a filter keeps, with sequential scans priced out: an index that can answer
 * the filter is then used whatever the table's size (at a few thousand rows PostgreSQL rightly
 * prefers to read them all); one that cannot leaves the sequential scan.
 */
async function planOf(database: TestDatabase, schema: string, where: WhereFilter): Promise<string> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    await client.query("SET enable_seqscan = off");
    const params = new SqlParams();
    const sql = `EXPLAIN SELECT m.rid FROM "${schema}".claw_memories AS m WHERE true${whereSql(whereOf(where), params, true)}`;
    const rows = (await client.query(sql, params.values)).rows as Array<{ "QUERY PLAN": string }>;
    await client.query("RESET enable_seqscan");
    return rows.map((row) => row["QUERY PLAN"]).join("\n");
  } finally {
    await client.end();
  }
}

forEachTestDatabase((database) => {
  describe("metadata filters read the metadata index", () => {
    it("$eq and $in can be answered by the GIN index; $ne, ranges and number paths test each row", async () => {
      const schema = database().newSchema();
      const memory = await openTestMemory(database(), { schema });
      await memory.import(
        Array.from({ length: ENTRIES }, (_, i) => ({
          key: `k${i}`,
          content: `entry ${i}`,
          metadata: { project: `p${i % 100}`, owner: { team: `t${i % 50}` }, size: i % 7 },
        })),
      );

      const indexed: WhereFilter[] = [
        { project: "p3" },
        { "owner.team": { $in: ["t1", "t2"] } },
        { size: 3, project: "p3" },
      ];
      for (const where of indexed) {
        expect(await planOf(database(), schema, where)).toContain("claw_memories_metadata");
      }
      const rowByRow: WhereFilter[] = [{ project: { $ne: "p3" } }, { size: { $gt: 5 } }, { "owner.0": "t1" }];
      for (const where of rowByRow) {
        expect(await planOf(database(), schema, where)).not.toContain("claw_memories_metadata");
      }
      // The index only narrows: the answers are the exact test's.
      expect(await memory.count()).toBe(ENTRIES);
      const listed = await memory.list({ where: { "owner.team": { $in: ["t1", "t2"] } }, limit: 1000 });
      expect(listed).toHaveLength(ENTRIES / 25);
      const teams = new Set(listed.map((e) => (e.metadata?.owner as { team?: string } | undefined)?.team));
      expect([...teams].sort()).toEqual(["t1", "t2"]);
    });

    it("containment never keeps fewer entries than the exact test: typed values, null, nested objects, arrays", async () => {
      const memory = await openTestMemory(database());
      await memory.import([
        { key: "one", content: "a", metadata: { n: 1, flag: true, none: null, deep: { x: { y: "z" } } } },
        { key: "one-float", content: "b", metadata: { n: 1.0, extra: "kept" } },
        { key: "string-one", content: "c", metadata: { n: "1" } },
        { key: "list", content: "d", metadata: { n: [1], tags: ["z"] } },
      ]);
      const keys = async (where: WhereFilter) => (await memory.list({ where })).map((e) => e.key).sort();

      expect(await keys({ n: 1 })).toEqual(["one", "one-float"]);
      expect(await keys({ n: { $in: [1, "1"] } })).toEqual(["one", "one-float", "string-one"]);
      expect(await keys({ flag: true })).toEqual(["one"]);
      expect(await keys({ none: null })).toEqual(["one"]);
      expect(await keys({ "deep.x.y": "z" })).toEqual(["one"]);
      expect(await keys({ tags: "z" })).toEqual([]);
    });
  });
});
