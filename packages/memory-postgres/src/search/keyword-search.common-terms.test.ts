// Keyword search on PostgreSQL leaves a query's most common terms out of the match (term-stats.ts)
// and still answers as core's SQLite search does: rare terms first, the entries holding every
// term when each is common, the newest entries holding a common term when nothing else matches.
import { describe, expect, it } from "vitest";
import type { Queryable } from "../db/pool.js";
import { sqlNames } from "../db/sql-names.js";
import { recordingDb } from "../test-support/recording-db.js";
import { forEachTestDatabase } from "../test-support/test-database.js";
import { openTestMemory, schemaOf } from "../test-support/test-memory.js";
import { createTermPlanner, PG_KEYWORD_BUDGET } from "./term-stats.js";

/** Entries: "alpha" in every one, "beta" in every second, "gamma" in five. */
const ENTRIES = PG_KEYWORD_BUDGET * 2 + 400;
const GAMMA = [7, 611, 1205, 1703, 2301];
const SLICE = 100;

function contentOf(i: number): string {
  const words = [`entry${i}`, "alpha"];
  if (i % 2 === 0) words.push("beta");
  if (GAMMA.includes(i)) words.push("gamma");
  return words.join(" ");
}

forEachTestDatabase((database) => {
  describe("keyword search with common terms", () => {
    async function filled() {
      const memory = await openTestMemory(database(), { settings: { hotCacheSize: 0 } });
      // In slices: a write sorts its rows by key, so rids follow the entries' order slice by slice.
      for (let from = 0; from < ENTRIES; from += SLICE) {
        const slice = Array.from({ length: SLICE }, (_, j) => from + j);
        await memory.import(slice.map((i) => ({ key: `k${i}`, content: contentOf(i) })));
      }
      return memory;
    }

    it("plans from the planner's statistics: common terms dropped, read once a minute", async () => {
      const memory = await filled();
      const schema = schemaOf(memory);
      await database().query(`ANALYZE "${schema}".claw_memories`);
      const { db, statements } = recordingDb(database());
      let now = 1_000;
      const planner = createTermPlanner(sqlNames(schema), PG_KEYWORD_BUDGET, () => now);
      expect(await planner.plan(db, ["alpha", "gamma", "beta"])).toMatchObject({
        kept: ["gamma"],
        dropped: ["alpha", "beta"],
        overBudget: false,
        newestRowid: ENTRIES,
      });
      expect(statements).toHaveLength(1);
      // The statistics are kept: planning again costs no statement until a minute has passed.
      expect((await planner.plan(db, ["gamma", "alpha"])).kept).toEqual(["gamma"]);
      expect(statements).toHaveLength(1);
      now += 61_000;
      // Every term over the budget: the rarest stays, and the plan says so.
      expect(await planner.plan(db, ["alpha", "beta"])).toMatchObject({
        kept: ["beta"],
        dropped: ["alpha"],
        overBudget: true,
      });
      expect(statements).toHaveLength(2);
    });

    it("keeps every term of a table never analysed", async () => {
      const memory = await openTestMemory(database());
      await memory.store("a", "alpha beta");
      const planner = createTermPlanner(sqlNames(schemaOf(memory)), 1);
      const db = { query: database().query } as unknown as Queryable;
      expect(await planner.plan(db, ["alpha", "beta"])).toMatchObject({
        kept: ["alpha", "beta"],
        dropped: [],
      });
    });

    it("ranks the rare term's entries first", async () => {
      const memory = await filled();
      const hits = await memory.recall("alpha gamma", { mode: "bm25", limit: 5 });
      expect(hits.map((h) => h.key).sort()).toEqual(GAMMA.map((i) => `k${i}`).sort());
    });

    it("answers two common terms with the entries that hold both", async () => {
      const memory = await filled();
      const hits = await memory.recall("alpha beta", { mode: "bm25", limit: 10 });
      expect(hits).toHaveLength(10);
      for (const hit of hits) expect(hit.content).toMatch(/\balpha beta\b/);
    });

    it("fills up with the newest entries of a dropped term when the kept ones match nothing", async () => {
      const memory = await filled();
      const hits = await memory.recall("alpha zzyzx", { mode: "bm25", limit: 10 });
      expect(hits).toHaveLength(10);
      for (const hit of hits) {
        expect(Number(hit.key.slice(1))).toBeGreaterThanOrEqual(ENTRIES - PG_KEYWORD_BUDGET - SLICE);
      }
    });
  });
});
