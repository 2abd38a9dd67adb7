// ts_rank_cd counts every matched word alike: keyword search weights its candidates by the share
// of the query's idf they hold (idfShareSql), so one rare word outranks a common one repeated.
import { describe, expect, it } from "vitest";
import type { Queryable } from "../db/pool.js";
import { sqlNames } from "../db/sql-names.js";
import { forEachTestDatabase } from "../test-support/test-database.js";
import { openTestMemory, schemaOf } from "../test-support/test-memory.js";
import { createTermPlanner } from "./term-stats.js";

/** "kettle" thrice in 60 notes; "zeppelin" once, in one. */
const NOTES = [
  ...Array.from({ length: 60 }, (_, i) => ({ key: `common${i}`, content: `kettle kettle kettle note ${i}` })),
  { key: "rare", content: "a zeppelin note" },
];

forEachTestDatabase((database) => {
  describe("keyword search weighted by idf", () => {
    it("ranks the entry holding the rare term above those repeating the common one", async () => {
      const memory = await openTestMemory(database(), { settings: { hotCacheSize: 0 } });
      await memory.import(NOTES);
      await database().query(`ANALYZE "${schemaOf(memory)}".claw_memories`);
      const found = await memory.recall("kettle zeppelin", { mode: "bm25", limit: 3 });
      expect(found[0]?.key).toBe("rare");
      expect(found.slice(1).every((entry) => entry.key.startsWith("common"))).toBe(true);
    });

    it("gives each term BM25's idf from the lexeme statistics, 1 without them", async () => {
      const memory = await openTestMemory(database(), { settings: { hotCacheSize: 0 } });
      await memory.import(NOTES);
      const db = { query: database().query.bind(database()) } as unknown as Queryable;
      const planner = createTermPlanner(sqlNames(schemaOf(memory)));
      expect(await planner.idf(db, ["kettle", "zeppelin"])).toEqual([1, 1]);
      await database().query(`ANALYZE "${schemaOf(memory)}".claw_memories`);
      const analysed = createTermPlanner(sqlNames(schemaOf(memory)));
      const [kettle, zeppelin] = await analysed.idf(db, ["kettle", "zeppelin"]);
      // 60 of 61 rows hold "kettle": ln(1 + 1.5 / 60.5).
      expect(kettle).toBeCloseTo(Math.log(1 + 1.5 / 60.5), 3);
      expect(zeppelin).toBeGreaterThan(2);
    });
  });
});
