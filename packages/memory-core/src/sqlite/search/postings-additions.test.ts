import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it, onTestFinished } from "vitest";
import { porterStem } from "../../text/porter-stem.js";
import { createStatementCache, type StatementCache } from "../schema/statement-cache.js";
import { openTestMemory, tempDir } from "../test-support/temp-memory.js";
import { EntryLengths } from "./fts5-shadow-tables.js";
import { type TermPostings, withAdditions } from "./postings-additions.js";

const NOTHING: TermPostings = {
  rids: new Int32Array(0),
  freqs: new Float64Array(0),
  lengths: new Int32Array(0),
  coveredRid: 0,
};

/** f per entry counted from the index's instances: key and body weigh 1, context 0.5. */
function counted(statements: StatementCache, word: string): Map<number, number> {
  const stem = porterStem(word);
  statements
    .get(
      "CREATE VIRTUAL TABLE IF NOT EXISTS temp.test_instances USING fts5vocab(main, memories_fts, instance)",
    )
    .run();
  const weights: Record<string, number> = { key: 1, body: 1, context: 0.5 };
  const out = new Map<number, number>();
  for (const { doc, col } of statements
    .get("SELECT doc, col FROM temp.test_instances WHERE term = ?")
    .all(stem) as {
    doc: number;
    col: string;
  }[]) {
    out.set(doc, (out.get(doc) ?? 0) + (weights[col] as number));
  }
  return out;
}

function asMap(term: TermPostings): Map<number, number> {
  return new Map(Array.from(term.rids, (rid, i) => [rid, term.freqs[i] as number]));
}

async function opened() {
  const path = join(tempDir(), "brain.db");
  const memory = openTestMemory({ path });
  await memory.import(
    Array.from({ length: 300 }, (_, i) => ({
      key: i % 7 === 0 ? `coffee-${i}` : `k-${i}`,
      content: `${"coffee ".repeat((i >> 1) % 4)}garden ${i % 5 === 0 ? "tea" : "water"} item${i}`,
      // A session turn's context holds the turn before it (half weight): 1 or 3 "coffee" there.
      ...(i % 6 === 0 ? { sessionId: `s-${i % 5}` } : {}),
    })),
  );
  const db = new Database(path, { readonly: true });
  onTestFinished(() => {
    db.close();
  });
  return { memory, statements: createStatementCache(db) };
}

describe("postings extended with the entries added since they were read", () => {
  it("derives each new entry's weighted count from FTS5's bm25, exactly", async () => {
    const { memory, statements } = await opened();
    const lengths = new EntryLengths();
    const before = withAdditions(statements, NOTHING, "coffee", lengths) as TermPostings;
    expect(asMap(before)).toEqual(counted(statements, "coffee"));
    expect([...before.freqs].some((f) => !Number.isInteger(f))).toBe(true);
    expect(before.coveredRid).toBe(300);

    await memory.import(
      Array.from({ length: 40 }, (_, i) => ({
        key: `new-${i}`,
        content: `${"coffee ".repeat(i % 3)} fresh ${i}`,
      })),
    );
    const after = withAdditions(statements, before, "coffee", lengths) as TermPostings;
    expect(after.coveredRid).toBe(340);
    expect(after.rids.length).toBeGreaterThan(before.rids.length);
    expect(asMap(after)).toEqual(counted(statements, "coffee"));
    expect(Array.from(after.rids)).toEqual([...after.rids].sort((a, b) => a - b));
    // Nothing added for a word: the same postings, now covering the newest entry.
    const tea = withAdditions(statements, NOTHING, "tea", lengths) as TermPostings;
    await memory.store("newer", "no such word here", { category: "core" });
    const same = withAdditions(statements, tea, "tea", lengths) as TermPostings;
    expect(same.rids).toEqual(tea.rids);
    expect(same.coveredRid).toBe(341);
  });

  it("refuses when the held postings are not what the index holds (the counts do not come back whole)", async () => {
    const { memory, statements } = await opened();
    const lengths = new EntryLengths();
    const held = withAdditions(statements, NOTHING, "coffee", lengths) as TermPostings;
    // Postings claiming 100 entries more than the index has: the idf differs from FTS5's.
    const inflated: TermPostings = {
      ...held,
      rids: new Int32Array(held.rids.length + 100),
      freqs: new Float64Array(held.rids.length + 100),
      lengths: new Int32Array(held.rids.length + 100),
    };
    await memory.import([{ key: "added", content: "coffee coffee garden" }]);
    expect(withAdditions(statements, inflated, "coffee", lengths)).toBeNull();
    expect(withAdditions(statements, held, "coffee", lengths)?.rids.length).toBe(held.rids.length + 1);
  });
});
