import type { EntryFilter } from "@claw/memory-api";
import Database from "better-sqlite3";
import { describe, expect, it, onTestFinished } from "vitest";
import { createRowCache } from "../reads/row-cache.js";
import { createStatementCache } from "../schema/statement-cache.js";
import { importedStore } from "../test-support/temp-memory.js";
import { bm25FromPostings } from "./bm25-postings.js";
import { type KeywordHit, keywordSearch } from "./keyword-search.js";

const TOPICS = ["deploy", "coffee", "garden", "budget", "travel", "python", "meeting", "sister"];

/** 1,200 entries in two namespaces, four categories and 40 sessions; topic words skewed. */
function entries() {
  return Array.from({ length: 1200 }, (_, i) => ({
    key: `e-${i}`,
    content: [
      TOPICS[i % 8],
      TOPICS[(i * 7) % 5],
      i % 3 === 0 ? "review notes" : "plain",
      `item${i % 50}`,
      i % 11 === 0 ? TOPICS[i % 3] : "",
    ].join(" "),
    namespace: i % 2 === 0 ? "default" : "team",
    category: (["core", "daily", "decision", "preference"] as const)[Math.floor(i / 2) % 4],
    sessionId: `s-${i % 40}`,
  }));
}

const FILTERS: Array<[string, EntryFilter]> = [
  ["every namespace", { namespace: "*" }],
  ["one namespace and category", { namespace: "default", categories: ["daily"] }],
  ["one session (rejects most of a full top N)", { namespace: "*", sessionId: "s-3" }],
];

/** Filters a row kept in memory is tested against in JavaScript, or (metadata) in SQL. */
const ROW_FILTERS: Array<[string, EntryFilter]> = [
  ...FILTERS,
  ["one namespace, alive now", { namespace: "team", aliveAt: new Date().toISOString() }],
  ["updated since (nothing)", { namespace: "*", since: "2999-01-01T00:00:00.000Z" }],
  ["metadata", { namespace: "*", where: [{ op: "exists", path: ["tier"], value: false }] }],
];

const QUERIES = ["deploy garden", "coffee budget review", "item7 travel", "meeting sister notes", "python"];

function summary(hits: readonly KeywordHit[]) {
  return hits.map((hit) => [hit.row.key, hit.score]);
}

/** The hits with every column ranking reads. */
function rowsOf(hits: readonly KeywordHit[]) {
  return hits.map(({ row, score }) => {
    const { rid, key, content, category, created_at, updated_at, session_id, namespace } = row;
    return { rid, key, content, category, created_at, updated_at, session_id, namespace, score };
  });
}

describe("keyword search ranked from held postings", () => {
  it("returns what FTS5's ranking returns, for every filter, limit and budget", async () => {
    const { db } = await importedStore(entries());
    const path = db.name;
    const fresh = () => {
      const connection = new Database(path, { readonly: true });
      onTestFinished(() => {
        connection.close();
      });
      return createStatementCache(connection);
    };
    const warm = fresh();
    let held = 0;
    let answered = 0;
    for (const [, filter] of FILTERS) {
      for (const query of QUERIES) {
        for (const [limit, budget] of [
          [10, 5000],
          [40, 5000],
          [10, 300],
        ] as const) {
          keywordSearch(warm, query, filter, limit, budget);
          const fromMemory = keywordSearch(warm, query, filter, limit, budget);
          const fromFts = keywordSearch(fresh(), query, filter, limit, budget);
          expect(summary(fromMemory)).toEqual(summary(fromFts));
          if (fromMemory.length > 0) answered++;
        }
      }
    }
    // All but 3 × 3 searches find entries: "python" is only in namespace "team" (odd entries),
    // and session s-3 holds neither "python" nor "item7" or "travel".
    expect(answered).toBe(FILTERS.length * QUERIES.length * 3 - 9);
    // The warm connection did rank from memory: its postings for the words are held.
    for (const query of QUERIES) if (bm25FromPostings(warm, query.split(" "), 10) !== null) held++;
    expect(held).toBe(QUERIES.length);
  });

  it("returns the same rows taken from a row cache, however small, for every filter", async () => {
    const { db } = await importedStore(entries());
    const fresh = () => {
      const connection = new Database(db.name, { readonly: true });
      onTestFinished(() => {
        connection.close();
      });
      return createStatementCache(connection);
    };
    const warm = fresh();
    const rows = createRowCache(warm, 16);
    let answered = 0;
    for (const [, filter] of ROW_FILTERS) {
      for (const query of QUERIES) {
        for (const limit of [10, 40]) {
          keywordSearch(warm, query, filter, limit, 5000, rows);
          const cached = keywordSearch(warm, query, filter, limit, 5000, rows);
          const fromFts = keywordSearch(fresh(), query, filter, limit, 5000);
          expect(rowsOf(cached)).toEqual(rowsOf(fromFts));
          if (cached.length > 0) answered++;
        }
      }
    }
    // The three (filter, query) pairs found empty above, and every query updated since 2999.
    expect(answered).toBe(ROW_FILTERS.length * QUERIES.length * 2 - (3 + QUERIES.length) * 2);
  });
});
