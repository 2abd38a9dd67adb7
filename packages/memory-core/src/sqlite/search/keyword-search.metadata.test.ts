import { describe, expect, it } from "vitest";
import { whereOf } from "../../metadata/where-filter.js";
import type { EntryFilter } from "../reads/filter-sql.js";
import type { StatementCache } from "../schema/statement-cache.js";
import { importedStore } from "../test-support/temp-memory.js";
import { keywordSearch } from "./keyword-search.js";

/**
 * 2,000 entries, all notes; a quarter hold "zebra" (every fourth, all of project p0), each at its
 * own length so no two rank alike; the last hundred are of session s1 (where an entry's context
 * holds its predecessor's words, so "zebra" also matches the entries of p1 among them).
 */
async function seeded() {
  const { statements: cache } = await importedStore(
    Array.from({ length: 2000 }, (_, i) => ({
      key: `e-${i}`,
      content: `users ${i % 4 === 0 ? "zebra" : "notes"} ${"x ".repeat(i % 97)}`,
      metadata: { project: `p${i % 4}`, kind: "note", n: i },
      ...(i >= 1900 ? { sessionId: "s1" } : {}),
    })),
  );
  const sql: string[] = [];
  const statements: StatementCache = {
    get(text) {
      sql.push(text);
      return cache.get(text);
    },
    clear: cache.clear,
  };
  return { statements, sql };
}

/** The keys (and scores) a keyword search returns, with a budget that makes the plan count matches. */
function search(statements: StatementCache, query: string, filter: EntryFilter, limit = 10) {
  return keywordSearch(statements, query, filter, limit, 500).map(
    (h) => `${h.row.key} ${h.score.toFixed(9)}`,
  );
}

describe("keyword search narrowed by the metadata index", () => {
  it("probes the index per match when the set is larger than the matches, else reads the set", async () => {
    const { statements, sql } = await seeded();
    const cases: Array<[where: object, probed: boolean]> = [
      [{ kind: "note" }, true], // 2,000 named against ~500 matches
      [{ kind: { $in: ["note", "memo"] } }, true],
      [{ project: "p0" }, false], // 500 named: read once
      [{ n: { $gte: 1000 } }, false], // a range cannot be probed by key
    ];
    for (const [where, probed] of cases) {
      sql.length = 0;
      const narrowed = search(statements, "users zebra", { namespace: "*", where: whereOf(where) });
      const ranking = sql.filter((s) => s.includes("bm25(memories_fts"));
      expect(ranking.some((s) => s.includes("EXISTS (SELECT 1 FROM memory_fields"))).toBe(probed);
      expect(ranking.some((s) => s.includes("IN (SELECT rid FROM memory_fields"))).toBe(!probed);
      expect(narrowed).toHaveLength(10);
    }
  });

  it("returns what the unnarrowed filter returns, also when the rest of the filter rejects the top N", async () => {
    const { statements } = await seeded();
    // Each indexed filter beside one the index cannot answer ($nin), which runs on the rows.
    const pairs: Array<[indexed: object, scanned: object]> = [
      [{ kind: "note" }, { kind: { $nin: ["memo"] } }],
      [{ n: { $gte: 0 } }, { kind: { $nin: ["memo"] } }],
      [{ project: "p0" }, { project: { $nin: ["p1", "p2", "p3"] } }],
    ];
    for (const [indexed, scanned] of pairs) {
      const reference = search(statements, "zebra", { namespace: "*", where: whereOf(scanned) });
      expect(reference).toHaveLength(10);
      expect(search(statements, "zebra", { namespace: "*", where: whereOf(indexed) })).toEqual(reference);
      // Session s1 keeps 25-odd of the 500-odd matches, most beyond the top 100: the walk finds them.
      const inSession = search(statements, "zebra", {
        namespace: "*",
        sessionId: "s1",
        where: whereOf(scanned),
      });
      expect(inSession).toHaveLength(10);
      expect(inSession.every((hit) => Number(hit.slice(2, hit.indexOf(" "))) >= 1900)).toBe(true);
      expect(
        search(statements, "zebra", { namespace: "*", sessionId: "s1", where: whereOf(indexed) }),
      ).toEqual(inSession);
    }
  });
});
