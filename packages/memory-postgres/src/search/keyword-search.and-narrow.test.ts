// An AND pass over common terms lets the full-text index intersect the rarer ones and tests the
// rows it finds for the rest (and-index-terms.ts): the same entries, every term in each.
import { describe, expect, it } from "vitest";
import { sqlNames } from "../db/sql-names.js";
import { recordingDb } from "../test-support/recording-db.js";
import { forEachTestDatabase } from "../test-support/test-database.js";
import { openTestMemory, schemaOf } from "../test-support/test-memory.js";
import { keywordSearch } from "./keyword-search.js";
import { createTermPlanner } from "./term-stats.js";

/** "alpha" in every entry, "beta" in every second, "delta" in every 25th. */
const ENTRIES = 2_400;
/**
 * Every term of the query over it, but not the 48 entries holding all three (so the pass ranks
 * them all, no window), and beta over AND_INDEX_MAX budgets (1,000).
 */
const BUDGET = 50;

function contentOf(i: number): string {
  const words = [`entry${i}`, "alpha"];
  if (i % 2 === 0) words.push("beta");
  if (i % 25 === 0) words.push("delta");
  return words.join(" ");
}

forEachTestDatabase((database) => {
  describe("keyword search: an AND narrowed by its rarest term", () => {
    it("finds the entries holding every term, the index asked for the rarest one only", async () => {
      const memory = await openTestMemory(database(), { settings: { hotCacheSize: 0 } });
      const schema = schemaOf(memory);
      await memory.import(
        Array.from({ length: ENTRIES }, (_, i) => ({ key: `k${i}`, content: contentOf(i) })),
      );
      await database().query(`ANALYZE "${schema}".claw_memories`);
      const { db, statements } = recordingDb(database());
      const terms = createTermPlanner(sqlNames(schema), BUDGET);
      // delta (96 entries) × beta (1,200) × alpha (every one) of 2,400: delta alone leaves 96 rows.
      expect(await terms.andIndexTerms(db, ["delta", "beta", "alpha"])).toEqual(["delta"]);
      const ctx = {
        db,
        names: sqlNames(schema),
        textSearchConfig: "english",
        filter: {},
        withEmbedding: false,
        terms,
      };
      const hits = await keywordSearch(ctx, "alpha beta delta", 40);
      // Entries holding all three (i % 50 === 0: 48 of them), and no other.
      expect(hits).toHaveLength(40);
      for (const hit of hits) expect(Number(hit.row.key.slice(1)) % 50).toBe(0);
      const narrowed = statements.filter((s) => s.includes("AS narrow"));
      expect(narrowed).toHaveLength(1);
      expect(narrowed[0]).toContain("m.fts @@ q.narrow AND ts_match_vq(m.fts, q.query)");
    });
  });
});
