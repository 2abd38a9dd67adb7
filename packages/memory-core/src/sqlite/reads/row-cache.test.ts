import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it, onTestFinished } from "vitest";
import { createStatementCache } from "../schema/statement-cache.js";
import { openTestMemory, tempDir } from "../test-support/temp-memory.js";
import { entryColumns } from "./entry-row.js";
import { createRowCache } from "./row-cache.js";

/** A store of `count` entries "e-<i>" (rowid i + 1), and a writable connection to it. */
async function store(count: number) {
  const path = join(tempDir(), "brain.db");
  const memory = openTestMemory({ path });
  await memory.import(Array.from({ length: count }, (_, i) => ({ key: `e-${i}`, content: `entry ${i}` })));
  await memory.close();
  const connect = () => {
    const db = new Database(path);
    onTestFinished(() => {
      db.close();
    });
    return db;
  };
  const db = connect();
  return { db, statements: createStatementCache(db), connect };
}

const contentOf = (row: { content: string } | undefined) => row?.content;

describe("row cache", () => {
  it("returns every entry column but the vector, in the order asked, undefined for a rowid not stored", async () => {
    const { db, statements } = await store(20);
    // One row with every column set: each value must land under its own name.
    db.prepare(
      `UPDATE memories SET session_id = 's-1', importance = 0.9, superseded_by = 'other-id',
         source_path = 'notes/a.md', source_start = 3, source_end = 9, context = 'Project > Notes',
         metadata = '{"tier":"gold"}', expires_at = '2030-01-01T00:00:00.000Z' WHERE rid = 7`,
    ).run();
    const rows = createRowCache(statements, 100).rows([7, 999, 2, 7]);
    expect(rows.map(contentOf)).toEqual(["entry 6", undefined, "entry 1", "entry 6"]);
    const asRead = (rid: number) =>
      db.prepare(`SELECT ${entryColumns(false)} FROM memories m WHERE m.rid = ?`).get(rid);
    expect(rows[0]).toStrictEqual(asRead(7));
    expect(rows[2]).toStrictEqual(asRead(2));
    expect(rows[0]?.metadata).toBe('{"tier":"gold"}');
    expect(rows[0]?.source_end).toBe(9);
  });

  it("serves a row read before from memory while nothing is written", async () => {
    const { statements } = await store(20);
    const cache = createRowCache(statements, 100);
    const [first] = cache.rows([3]);
    const [again] = cache.rows([5, 3]).slice(1);
    expect(again).toBe(first);
  });

  it("reads rows again once this connection wrote any row", async () => {
    const { db, statements } = await store(20);
    const cache = createRowCache(statements, 100);
    const [before] = cache.rows([3]);
    // A row the cache never read: every row is read again all the same.
    db.prepare("UPDATE memories SET content = 'changed 3' WHERE rid = 3").run();
    expect(contentOf(cache.rows([3])[0])).toBe("changed 3");
    const [kept] = cache.rows([4]);
    db.prepare("UPDATE memories SET category = 'daily' WHERE rid = 9").run();
    expect(cache.rows([4])[0]).not.toBe(kept);
    expect(before?.content).toBe("entry 2");
  });

  it("reads rows again once another connection committed", async () => {
    const { statements, connect } = await store(20);
    const cache = createRowCache(statements, 100);
    expect(contentOf(cache.rows([3])[0])).toBe("entry 2");
    connect().prepare("UPDATE memories SET content = 'changed by another' WHERE rid = 3").run();
    expect(contentOf(cache.rows([3])[0])).toBe("changed by another");
    connect().prepare("DELETE FROM memories WHERE rid = 3").run();
    expect(cache.rows([3])).toEqual([undefined]);
  });

  it("keeps at most its size, the oldest rows leaving first", async () => {
    const { statements } = await store(20);
    const cache = createRowCache(statements, 8);
    const first = cache.rows([1, 2, 3, 4, 5, 6, 7, 8]);
    // A ninth row: the oldest quarter (rows 1 and 2) leaves.
    cache.rows([9]);
    const again = cache.rows([1, 2, 3, 8]);
    expect(again[0]).not.toBe(first[0]);
    expect(again[1]).not.toBe(first[1]);
    // Rows 1 and 2 came back in place of the next oldest (3 and 4); 8 stayed.
    expect(again[3]).toBe(first[7]);
    expect(cache.rows([5])[0]).toBe(first[4]);
    // More rows than it holds in one read: all are returned; the first 8 it had to read are kept
    // (3, 4 and 10 to 15), the rest is not.
    const many = Array.from({ length: 20 }, (_, i) => i + 1);
    const got = cache.rows(many);
    expect(got.map(contentOf)).toEqual(many.map((rid) => `entry ${rid - 1}`));
    expect(cache.rows([3, 15]).every((row, i) => row === got[[2, 14][i] as number])).toBe(true);
    expect(cache.rows([16])[0]).not.toBe(got[15]);
  });

  it("keeps fewer rows of long contents: about 1 KB of text a row it may hold", async () => {
    const { db, statements } = await store(20);
    db.prepare("UPDATE memories SET content = ? WHERE rid IN (1, 2, 3)").run("x".repeat(3000));
    // 8 rows × 1,024 characters: two of these rows (~3.2k each with their overhead) fit, not three.
    const cache = createRowCache(statements, 8);
    const first = cache.rows([1, 2, 3]);
    expect(first.map((row) => row?.content.length)).toEqual([3000, 3000, 3000]);
    const again = cache.rows([1, 2, 3]);
    expect(again[0]).toBe(first[0]);
    expect(again[1]).toBe(first[1]);
    expect(again[2]).not.toBe(first[2]);
    // Keeping row 3 this time made the two older ones leave.
    expect(cache.rows([3])[0]).toBe(again[2]);
    expect(cache.rows([1])[0]).not.toBe(first[0]);
    // Short rows fill the cache by count again.
    const short = cache.rows([4, 5, 6, 7, 8, 9]);
    expect(cache.rows([4, 9]).every((row, i) => row === short[[0, 5][i] as number])).toBe(true);
  });

  it("of size 0 reads every row each time", async () => {
    const { statements } = await store(20);
    const cache = createRowCache(statements, 0);
    const [first] = cache.rows([3]);
    const [again] = cache.rows([3]);
    expect(again).toEqual(first);
    expect(again).not.toBe(first);
  });

  it("reads more rows than one statement takes", async () => {
    const { statements } = await store(300);
    const rids = Array.from({ length: 300 }, (_, i) => 300 - i);
    const rows = createRowCache(statements, 1000).rows(rids);
    expect(rows.map(contentOf)).toEqual(rids.map((rid) => `entry ${rid - 1}`));
  });
});
