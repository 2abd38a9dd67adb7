import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { importedStore, openTestMemory, tempDir } from "../test-support/temp-memory.js";
import { planTerms } from "./common-terms.js";
import { keywordSearch } from "./keyword-search.js";

const ALL = { namespace: "*" } as const;

/**
 * 2,000 entries that all hold "users" (stored by FTS5 as "user"); every second one "projects"
 * too; three hold "zebra" (e-10 with "projects", e-21 and e-31 without); the last 300 hold "newest".
 */
async function seeded() {
  const { db, statements } = await importedStore(
    Array.from({ length: 2000 }, (_, i) => ({
      key: `e-${i}`,
      content: [
        "users",
        i % 2 === 0 ? "projects" : "notes",
        i === 10 || i === 21 || i === 31 ? "zebra" : "",
        i >= 1700 ? "newest" : "",
        `filler${i}`,
      ].join(" "),
    })),
  );
  const keyOf = (rid: number) =>
    (db.prepare("SELECT key FROM memories WHERE rid = ?").get(rid) as { key: string }).key;
  return { statements, keyOf };
}

describe("a keyword query ranks at most its budget of matching entries", () => {
  it("drops the most common terms, keeps the rarest, and leaves unmeasurable terms in", async () => {
    const { statements } = await seeded();
    expect(planTerms(statements, ["users", "zebra"], 500)).toEqual({
      kept: ["zebra"],
      dropped: ["users"],
      overBudget: false,
      newestRowid: 2000,
      matchesAtMost: 3,
    });
    expect(planTerms(statements, ["users", "projects", "zebra"], 1200)).toEqual({
      kept: ["projects", "zebra"],
      dropped: ["users"],
      overBudget: false,
      newestRowid: 2000,
      matchesAtMost: 1003,
    });
    // The rarest term alone is over the budget: it stays, and the plan says so.
    expect(planTerms(statements, ["users", "projects"], 500)).toEqual({
      kept: ["projects"],
      dropped: ["users"],
      overBudget: true,
      newestRowid: 2000,
      matchesAtMost: 1000,
    });
    // A store no larger than the budget ranks every match, however often its terms repeat.
    expect(planTerms(statements, ["users", "projects"], 2500).dropped).toEqual([]);
    // Within the budget, or with the budget off (0), nothing is dropped.
    expect(planTerms(statements, ["users", "zebra"], 5000).dropped).toEqual([]);
    expect(planTerms(statements, ["users", "zebra"], 0).dropped).toEqual([]);
    // A word with an apostrophe is a phrase to FTS5 and cannot be measured: never dropped.
    expect(planTerms(statements, ["users", "zebra's"], 500)).toMatchObject({
      kept: ["zebra's"],
      // Its matches are not known: at most the whole store.
      matchesAtMost: 2000,
    });
  });

  it("ranks the entries holding the dropped terms too first, by coverage", async () => {
    const { statements, keyOf } = await seeded();
    const hits = keywordSearch(statements, "zebra projects", ALL, 3, 500);
    // "projects" (1,000 entries) is dropped; the zebra entry that also has it leads.
    expect(hits.map((h) => keyOf(h.row.rid))).toEqual(["e-10", "e-21", "e-31"]);
  });

  it("fills up from the newest entries when the kept terms find too few", async () => {
    const { statements, keyOf } = await seeded();
    const keys = keywordSearch(statements, "zebra users", ALL, 10, 300).map((h) => keyOf(h.row.rid));
    expect(keys).toHaveLength(10);
    expect(keys.slice(0, 3).sort()).toEqual(["e-10", "e-21", "e-31"]);
    // The fill ranks "users" only among the last 300 rowids (the budget).
    for (const key of keys.slice(3)) expect(Number(key.slice(2))).toBeGreaterThanOrEqual(1700);
  });

  it("answers a query of only common terms with the entries holding all of them", async () => {
    const { statements, keyOf } = await seeded();
    const keys = keywordSearch(statements, "users projects", ALL, 20, 500).map((h) => keyOf(h.row.rid));
    expect(keys).toHaveLength(20);
    for (const key of keys) expect(Number(key.slice(2)) % 2).toBe(0);
  });

  it("gives the exhaustive ranking's rows when the query fits the budget", async () => {
    const { statements } = await seeded();
    for (const query of ["zebra newest", "zebra filler10", "newest filler1999"]) {
      const budgeted = keywordSearch(statements, query, ALL, 10, 5000);
      const exhaustive = keywordSearch(statements, query, ALL, 10, 0);
      expect(budgeted.map((h) => [h.row.rid, h.score])).toEqual(exhaustive.map((h) => [h.row.rid, h.score]));
      expect(budgeted.length).toBeGreaterThan(0);
    }
  });

  it("is applied by recall through the keyword_rank_budget setting", async () => {
    const path = join(tempDir(), "brain.db");
    const budgeted = openTestMemory({ path, settings: { keywordRankBudget: 300, hotCacheSize: 0 } });
    await budgeted.import(
      Array.from({ length: 1000 }, (_, i) => ({
        key: `k-${i}`,
        content: `users ${i === 5 ? "zebra" : "notes"}`,
      })),
    );
    const keys = (await budgeted.recall("zebra users", { limit: 5, mode: "bm25" })).map((e) => e.key);
    expect(keys[0]).toBe("k-5");
    // The fill came from the newest 300 entries only.
    for (const key of keys.slice(1)) expect(Number(key.slice(2))).toBeGreaterThanOrEqual(700);
  });
});
