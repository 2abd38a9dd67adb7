import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it, onTestFinished } from "vitest";
import { CREATE_FTS, CREATE_META } from "../schema/schema.js";
import { createStatementCache, type StatementCache } from "../schema/statement-cache.js";
import { openTestMemory, tempDir } from "../test-support/temp-memory.js";
import { bm25FromPostings, type RankedRids } from "./bm25-postings.js";
import { COLUMN_WEIGHTS, indexFullText, reindexFullText, unindexFullTextWhere } from "./fts-index.js";
import { varints } from "./fts5-shadow-tables.js";

const WORDS = [
  "deploy",
  "deployed",
  "deploying",
  "server",
  "servers",
  "database",
  "coffee",
  "running",
  "runs",
  "runner",
  "meeting",
  "tuesday",
  "budget",
  "2024",
  "v2",
  "alpha",
  "review",
  "notes",
  "garden",
  "python",
  "rust",
  "travel",
  "paris",
  "tokyo",
  "allergy",
  "peanuts",
  "sister",
  "birthday",
];

/** A deterministic word stream with a skew: low indexes are frequent, as in real text. */
function wordsOf(seed: number, count: number): string[] {
  let x = seed * 2654435761;
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    const u = x / 2147483648;
    out.push(WORDS[Math.floor(WORDS.length * u * u)] as string);
  }
  return out;
}

/** 400 entries over the three columns: keys with words, bodies of 3–30 words, session turns and dates. */
function entries(from = 0, count = 400) {
  return Array.from({ length: count }, (_, j) => {
    const i = from + j;
    return {
      key: i % 3 === 0 ? `note-${wordsOf(i + 7, 1)[0]}-${i}` : `k-${i}`,
      content: wordsOf(i, 3 + (i % 28)).join(" "),
      category: i % 4 === 0 ? "daily" : "core",
      ...(i % 5 === 0 ? { sessionId: `s-${i % 15}` } : {}),
      createdAt: new Date(Date.UTC(2024, i % 12, 1 + (i % 27), 9)).toISOString(),
    };
  });
}

const QUERIES = [
  ["deploy", "server"],
  ["coffee"],
  ["running", "tuesday", "budget"],
  ["2024", "v2"],
  ["allergy", "peanuts", "sister", "birthday"],
  ["deploying", "deploy"],
  ["march", "garden"],
  ["note", "review", "notes"],
  ["zzzunknown", "travel"],
];

/** FTS5's own ranking of the OR of `terms`, as the keyword search asks for it. */
function ftsTop(statements: StatementCache, terms: readonly string[], depth: number): RankedRids {
  const rows = statements
    .get(
      `SELECT rowid, bm25(memories_fts, ${COLUMN_WEIGHTS.join(", ")}) AS rank FROM memories_fts
       WHERE memories_fts MATCH ? ORDER BY rank LIMIT ?`,
    )
    .raw()
    .all(terms.map((t) => `"${t}"`).join(" OR "), depth) as [number, number][];
  return { rids: rows.map(([rid]) => rid), ranks: rows.map(([, rank]) => rank) };
}

/** Ranked from memory: the first sighting of the terms is left to FTS5 (null), the second is held. */
function heldTop(statements: StatementCache, terms: readonly string[], depth: number): RankedRids {
  bm25FromPostings(statements, terms, depth);
  const held = bm25FromPostings(statements, terms, depth);
  if (held === null) throw new Error(`not ranked from memory: ${terms.join(" ")}`);
  return held;
}

function expectSameRanking(actual: RankedRids, expected: RankedRids): void {
  expect(actual.rids).toEqual(expected.rids);
  expect(actual.rids.length).toBe(expected.ranks.length);
  for (const [i, rank] of actual.ranks.entries()) {
    expect(Math.abs(rank - (expected.ranks[i] as number))).toBeLessThanOrEqual(Math.abs(rank) * 1e-12);
  }
}

async function store() {
  const path = join(tempDir(), "brain.db");
  const memory = openTestMemory({ path });
  await memory.import(entries());
  const db = new Database(path, { readonly: true });
  onTestFinished(() => {
    db.close();
  });
  return { memory, db, statements: createStatementCache(db) };
}

describe("bm25 from postings held in memory", () => {
  it("ranks as FTS5's bm25() with the column weights: same entries, same order, same ranks", async () => {
    const { statements } = await store();
    let compared = 0;
    for (const terms of QUERIES) {
      for (const depth of [5, 100]) {
        const expected = ftsTop(statements, terms, depth);
        expectSameRanking(heldTop(statements, terms, depth), expected);
        compared += expected.rids.length;
      }
    }
    expect(compared).toBeGreaterThan(500);
  });

  it("leaves a query's first sighting in a state of the index to FTS5, and words FTS5 reads differently", async () => {
    const { statements } = await store();
    expect(bm25FromPostings(statements, ["coffee", "garden"], 10)).toBeNull();
    expect(bm25FromPostings(statements, ["coffee", "garden"], 10)?.rids.length).toBe(10);
    // A new word in a query makes it a first sighting again.
    expect(bm25FromPostings(statements, ["coffee", "python"], 10)).toBeNull();
    for (const unplain of [["café"], ["don't"], ["東京"], ["Coffee"]]) {
      bm25FromPostings(statements, unplain, 10);
      expect(bm25FromPostings(statements, unplain, 10)).toBeNull();
    }
  });

  it("keeps what it holds when another connection only adds entries, and checks it for them", async () => {
    const { memory, statements } = await store();
    for (const terms of QUERIES) heldTop(statements, terms, 50);
    // Appended entries outside sessions: a turn inserted before another would re-index that one.
    await memory.import(entries(400, 60).map(({ sessionId: _, ...entry }) => entry));
    await memory.store("fresh-1", "coffee coffee garden deploy", { category: "core" });
    // Held terms rank from memory at once, new entries included.
    for (const terms of QUERIES.filter((t) => !t.includes("march"))) {
      const held = bm25FromPostings(statements, terms, 50);
      expect(held).not.toBeNull();
      expectSameRanking(held as RankedRids, ftsTop(statements, terms, 50));
    }
    const fresh = statements.get("SELECT rid FROM memories WHERE key = 'fresh-1'").pluck().get() as number;
    expect((bm25FromPostings(statements, ["coffee"], 1000) as RankedRids).rids).toContain(fresh);
  });

  it("drops what it holds when another connection rewrites or removes entries", async () => {
    const { memory, statements } = await store();
    for (const terms of QUERIES) heldTop(statements, terms, 50);
    const ridOf = (key: string) =>
      statements.get("SELECT rid FROM memories WHERE key = ?").pluck().get(key) as number | undefined;
    const rewritten = ridOf("k-4") as number;
    expect(heldTop(statements, ["coffee"], 400).rids).not.toContain(rewritten);
    await memory.store("k-4", "coffee coffee garden deploy", { category: "core" });
    expect(bm25FromPostings(statements, ["coffee"], 50)).toBeNull();
    for (const terms of QUERIES) {
      expectSameRanking(heldTop(statements, terms, 50), ftsTop(statements, terms, 50));
    }
    expect(heldTop(statements, ["coffee"], 400).rids).toContain(rewritten);
    const gone = heldTop(statements, ["coffee", "garden"], 400).rids[0] as number;
    const goneKey = statements.get("SELECT key FROM memories WHERE rid = ?").pluck().get(gone) as string;
    await memory.forget(goneKey);
    await memory.forgetMany([{ key: "k-2" }, { key: "k-5" }]);
    expect(bm25FromPostings(statements, ["coffee", "garden"], 400)).toBeNull();
    const after = heldTop(statements, ["coffee", "garden"], 400);
    expect(after.rids).not.toContain(gone);
    expectSameRanking(after, ftsTop(statements, ["coffee", "garden"], 400));
  });

  it("follows its own connection's writes, and never ranks inside a transaction", async () => {
    const db = new Database(join(tempDir(), "own.db"));
    onTestFinished(() => {
      db.close();
    });
    db.exec(CREATE_FTS);
    db.exec(CREATE_META);
    db.exec("CREATE TABLE memories (rid INTEGER PRIMARY KEY, key TEXT)");
    const statements = createStatementCache(db);
    const add = (rid: number, body: string) => {
      db.prepare("INSERT INTO memories (rid, key) VALUES (?, ?)").run(rid, `k${rid}`);
      indexFullText(statements, rid, `k${rid}`, body, "");
    };
    const terms = ["coffee", "garden"];
    add(1, "coffee in the garden");
    add(2, "coffee coffee");
    add(3, "tea in the garden");
    expectSameRanking(heldTop(statements, terms, 10), ftsTop(statements, terms, 10));
    // An addition keeps the postings, checked for the new entry.
    add(4, "garden garden garden coffee");
    const added = bm25FromPostings(statements, terms, 10);
    expect(added?.rids).toContain(4);
    expectSameRanking(added as RankedRids, ftsTop(statements, terms, 10));
    // A rewrite (here a removal) drops them.
    unindexFullTextWhere(statements, "m.rid = ?", [2]);
    expect(bm25FromPostings(statements, terms, 10)).toBeNull();
    const afterDelete = heldTop(statements, terms, 10);
    expect(afterDelete.rids).toEqual([4, 1, 3]);
    expectSameRanking(afterDelete, ftsTop(statements, terms, 10));
    reindexFullText(statements, 3, "k3", "coffee", "");
    expect(bm25FromPostings(statements, terms, 10)).toBeNull();
    expectSameRanking(heldTop(statements, terms, 10), ftsTop(statements, terms, 10));
    db.transaction(() => {
      expect(bm25FromPostings(statements, terms, 10)).toBeNull();
    })();
  });

  it("reads SQLite's varints, one to nine bytes", () => {
    expect(varints(Uint8Array.from([0x01, 0x20, 0x07]))).toEqual([1, 32, 7]);
    expect(varints(Uint8Array.from([0xce, 0x10]))).toEqual([10000]);
    expect(varints(Uint8Array.from([0x81, 0x80, 0x00, 0x05]))).toEqual([16384, 5]);
    // A ninth byte carries 8 bits.
    expect(varints(Uint8Array.from([0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x81, 0x02]))).toEqual([258]);
    expect(varints(Uint8Array.from([0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00, 0x03]))).toEqual([
      2 ** 57,
      3,
    ]);
  });
});
