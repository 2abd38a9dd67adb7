import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it, onTestFinished } from "vitest";
import { expectInvalid } from "../testkit/contract-harness.js";
import { openTestMemory, tempDir } from "./test-support/temp-memory.js";

const entries = (count: number, from = 0) =>
  Array.from({ length: count }, (_, i) => ({
    key: `bulk-${from + i}`,
    content: `Imported note ${from + i} about zeppelins and route ${(from + i) % 9}`,
    createdAt: new Date(Date.UTC(2026, 0, 1) + (from + i) * 60_000).toISOString(),
  }));

/** What a failed import must leave as it was, read on a connection of its own. */
function snapshot(path: string) {
  const db = new Database(path, { readonly: true });
  onTestFinished(() => {
    db.close();
  });
  const one = (sql: string) => db.prepare(sql).pluck().get();
  return {
    rows: one("SELECT count(*) FROM memories"),
    indexed: one("SELECT count(*) FROM memories_fts WHERE memories_fts MATCH 'zeppelins'"),
    versions: one("SELECT count(*) FROM memory_versions"),
    automerge: one("SELECT v FROM memories_fts_config WHERE k = 'automerge'") ?? null,
  };
}

describe("import: an array's entries are validated as they are written", () => {
  it("a bad entry at the end of a bulk import rolls back the rows already written before it", async () => {
    const path = join(tempDir(), "brain.db");
    const memory = openTestMemory({ path });
    await memory.import(entries(1_500));
    await memory.store("bulk-7", "changed once, so the history has a version");
    const before = snapshot(path);

    // Big enough for the checkpoint worker, the bulk page cache and the whole merge of the index.
    const batch: Record<string, unknown>[] = entries(6_000, 1_500);
    batch.push({ key: "late", content: "dated on a day that is no date", createdAt: "2026-13-40" });
    await expectInvalid(memory, "entries[6000].createdAt", () => memory.import(batch as never));

    expect(snapshot(path)).toEqual(before);
    // bulk-7 no longer speaks of zeppelins.
    expect(before).toMatchObject({ rows: 1_500, indexed: 1_499, versions: 1 });
    expect(await memory.count()).toBe(1_500);
    expect(await memory.get("bulk-1500")).toBeNull();
    const found = await memory.recall("zeppelins", { mode: "bm25", limit: 1_000 });
    expect(found.length).toBe(1_000);
    expect(found.every((e) => Number(e.key.slice("bulk-".length)) < 1_500)).toBe(true);

    // The store takes the same entries once the bad one is gone, on the same connection.
    expect(await memory.import(batch.slice(0, 6_000) as never)).toBe(6_000);
    expect(await memory.count()).toBe(7_500);
    expect(snapshot(path)).toMatchObject({ rows: 7_500, indexed: 7_499, automerge: before.automerge });
  });

  it("an entry that is not an object, in the middle, is named and nothing of the batch stays", async () => {
    const memory = openTestMemory();
    const batch: unknown[] = entries(3_000);
    batch.splice(1_234, 0, "a string where an entry should be");
    await expectInvalid(memory, "entries[1234]", () => memory.import(batch as never));
    expect(await memory.count()).toBe(0);
    expect(await memory.recall("zeppelins", { mode: "bm25" })).toEqual([]);
  });
});
