import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { bm25ToScore } from "../../recall/keyword-score.js";
import { type EntryFilter, filterSql } from "../reads/filter-sql.js";
import { createStatementCache } from "../schema/statement-cache.js";
import { openTestMemory, tempDir } from "../test-support/temp-memory.js";
import { COLUMN_WEIGHTS } from "./fts-index.js";
import { keywordSearch } from "./keyword-search.js";

/** "alpha" `times` times in a text of `padding` more words: fewer and longer ranks lower. */
function text(times: number, padding: number): string {
  return `${"alpha ".repeat(times)}${"pad ".repeat(padding)}end`;
}

/**
 * Namespace "big": 300 entries with "alpha" twice in a short text, each a word longer than the last
 * (so no two rank alike). Every other group has "alpha" once in a long text and ranks below every
 * "big" entry, so an index top N taken before the filter holds none of them: "small" (3 entries),
 * a session in "chat" (dated 2020), and "old", where the strong entries are superseded.
 */
async function seeded() {
  const path = join(tempDir(), "brain.db");
  const memory = openTestMemory({ path });
  await memory.import([
    ...Array.from({ length: 300 }, (_, i) => ({
      key: `big-${i}`,
      content: text(2, i),
      namespace: "big",
      category: i % 3 === 0 ? "daily" : "core",
    })),
    ...Array.from({ length: 3 }, (_, j) => ({
      key: `small-${j}`,
      content: text(1, 400 + j),
      namespace: "small",
    })),
    ...Array.from({ length: 20 }, (_, j) => ({
      key: `chat-${j}`,
      content: text(1, 300 + j),
      namespace: "chat",
      sessionId: "s-1",
      updatedAt: "2020-06-01T00:00:00.000Z",
    })),
    ...Array.from({ length: 200 }, (_, j) => ({
      key: `old-${j}`,
      content: text(2, j),
      namespace: "old",
      supersededBy: "new",
    })),
    ...Array.from({ length: 2 }, (_, j) => ({
      key: `live-${j}`,
      content: text(1, 350 + j),
      namespace: "old",
    })),
  ]);
  const db = new Database(path, { readonly: true });
  const statements = createStatementCache(db);
  return { memory, db, statements };
}

/** The single-query form matchFts used before: every match ranked (with the index's column
 *  weights) and joined, then filtered. */
function oldQuery(db: Database.Database, match: string, filter: EntryFilter, limit: number) {
  const where = filterSql(filter);
  const rows = db
    .prepare(
      `SELECT m.rid, bm25(memories_fts, ${COLUMN_WEIGHTS.join(", ")}) AS rank FROM memories_fts JOIN memories m ON m.rid = memories_fts.rowid
       WHERE memories_fts MATCH ?${where.sql} ORDER BY rank LIMIT ?`,
    )
    .all(match, ...where.params, limit) as Array<{ rid: number; rank: number }>;
  return rows.map((r) => ({ rid: r.rid, score: bm25ToScore(r.rank) }));
}

describe("keyword search takes the index's top N before filtering", () => {
  it("finds every match of a namespace that the index's top N leaves out", async () => {
    const { memory, db } = await seeded();
    try {
      const small = await memory.recall("alpha", { namespace: "small", limit: 5, mode: "bm25" });
      expect(small.map((e) => e.key)).toEqual(["small-0", "small-1", "small-2"]);
    } finally {
      db.close();
    }
  });

  it("returns the best matches of the dominating namespace, as the single query did", async () => {
    const { memory, db } = await seeded();
    try {
      const big = await memory.recall("alpha", { namespace: "big", limit: 5, mode: "bm25" });
      const expected = oldQuery(db, '"alpha"', { namespace: "big" }, 5).map(
        (r) => (db.prepare("SELECT key FROM memories WHERE rid = ?").get(r.rid) as { key: string }).key,
      );
      expect(expected).toEqual(["big-0", "big-1", "big-2", "big-3", "big-4"]);
      expect(big.map((e) => e.key)).toEqual(expected);
    } finally {
      db.close();
    }
  });

  it.each<[string, EntryFilter]>([
    ["a dominating namespace", { namespace: "big" }],
    ["a crowded-out namespace", { namespace: "small" }],
    ["every namespace", { namespace: "*" }],
    ["a session", { namespace: "*", sessionId: "s-1" }],
    [
      "a time window",
      { namespace: "*", since: "2020-01-01T00:00:00.000Z", until: "2021-01-01T00:00:00.000Z" },
    ],
    ["superseded entries left out", { namespace: "old" }],
    ["superseded entries kept", { namespace: "old", includeSuperseded: true }],
    ["a category", { namespace: "big", categories: ["daily"] }],
    ["a namespace without matches", { namespace: "none" }],
  ])("gives the single query's rows and scores for %s", async (_name, filter) => {
    const { db, statements } = await seeded();
    try {
      for (const limit of [1, 5, 40, 400]) {
        const hits = keywordSearch(statements, "alpha", filter, limit).map((h) => ({
          rid: h.row.rid,
          score: h.score,
        }));
        expect(hits).toEqual(oldQuery(db, '"alpha"', filter, limit));
      }
    } finally {
      db.close();
    }
  });
});
