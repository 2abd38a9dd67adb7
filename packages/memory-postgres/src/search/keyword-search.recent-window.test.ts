// A keyword pass whose terms match more entries than the budget ranks the newest entries only
// (recent-window.ts), through the rid BRIN index; a window holding too few falls back to all.
import { describe, expect, it } from "vitest";
import { forEachTestDatabase } from "../test-support/test-database.js";
import { openTestMemory, schemaOf } from "../test-support/test-memory.js";
import { PG_KEYWORD_BUDGET } from "./term-stats.js";

/** "alpha" in every entry; the first OLD entries are decisions, the rest facts. */
const ENTRIES = PG_KEYWORD_BUDGET * 2 + 400;
const OLD = 100;
const SLICE = 100;

function indexOf(key: string): number {
  return Number(key.slice(1));
}

forEachTestDatabase((database) => {
  describe("keyword passes over the budget", () => {
    async function filled() {
      const memory = await openTestMemory(database(), { settings: { hotCacheSize: 0 } });
      // In slices: a write sorts its rows by key, so rids follow the entries' order slice by slice.
      for (let from = 0; from < ENTRIES; from += SLICE) {
        const slice = Array.from({ length: SLICE }, (_, j) => from + j);
        await memory.import(
          slice.map((i) => ({
            key: `k${i}`,
            content: `note ${i} alpha`,
            category: i < OLD ? ("decision" as const) : ("fact" as const),
          })),
        );
      }
      await database().query(`ANALYZE "${schemaOf(memory)}".claw_memories`);
      return memory;
    }

    it("ranks the newest entries holding a term every entry holds", async () => {
      const memory = await filled();
      const hits = await memory.recall("alpha", { mode: "bm25", limit: 10 });
      expect(hits).toHaveLength(10);
      // Ranked over every entry, equal ranks went to the lowest rids (k0, k1, …).
      for (const hit of hits) expect(indexOf(hit.key)).toBeGreaterThanOrEqual(ENTRIES - PG_KEYWORD_BUDGET);
    });

    it("still finds older entries passing the filter when the newest hold too few", async () => {
      const memory = await filled();
      const hits = await memory.recall("alpha", { mode: "bm25", limit: 10, categories: ["decision"] });
      expect(hits).toHaveLength(10);
      for (const hit of hits) expect(indexOf(hit.key)).toBeLessThan(OLD);
    });

    it("has the rid BRIN index the windows are found by", async () => {
      const memory = await filled();
      const { rows } = await database().query(
        "SELECT indexdef FROM pg_indexes WHERE schemaname = $1 AND indexname = 'claw_memories_rid_recent'",
        [schemaOf(memory)],
      );
      expect((rows[0] as { indexdef?: string } | undefined)?.indexdef).toMatch(/USING brin \(rid\)/);
    });
  });
});
