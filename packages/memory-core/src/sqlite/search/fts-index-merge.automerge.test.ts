import { join } from "node:path";
import { silentLogger } from "@claw/memory-api";
import Database from "better-sqlite3";
import { describe, expect, it, onTestFinished } from "vitest";
import { CREATE_FTS, CREATE_MEMORIES } from "../schema/schema.js";
import { createStatementCache, type StatementCache } from "../schema/statement-cache.js";
import { openTestMemory, tempDir } from "../test-support/temp-memory.js";
import { createIndexMerge } from "./fts-index-merge.js";

const batch = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => ({
    key: `k${from + i}`,
    content: `entry ${from + i} about topic${(from + i) % 50} and word${(from + i) % 7}`,
  }));

/**
 * A store at `path` whose index keeps `automerge` (when given). `settingsWritten()` counts the
 * writes of the index's settings since: FTS5 counts them in the cookie that heads its structure
 * record.
 */
async function watchedStore(path: string, automerge?: number) {
  await openTestMemory({ path }).close();
  const db = new Database(path);
  onTestFinished(() => {
    db.close();
  });
  if (automerge !== undefined) {
    db.exec(`INSERT INTO memories_fts(memories_fts, rank) VALUES ('automerge', ${automerge})`);
  }
  const cookie = () =>
    (db.prepare("SELECT block FROM memories_fts_data WHERE id = 10").pluck().get() as Buffer).readUInt32BE(0);
  const initial = cookie();
  return {
    settingsWritten: () => cookie() - initial,
    automerge: () => db.prepare("SELECT v FROM memories_fts_config WHERE k = 'automerge'").pluck().get(),
    segments: () => db.prepare("SELECT count(DISTINCT segid) FROM memories_fts_idx").pluck().get(),
  };
}

describe("bulk writes merged whole skip FTS5's automatic merges", () => {
  it("turns automerge off for an import that is merged whole, and back to the index's own value", async () => {
    const path = join(tempDir(), "brain.db");
    const store = await watchedStore(path, 8);
    const memory = openTestMemory({ path });
    await memory.import(batch(0, 3_000));
    expect(store.settingsWritten()).toBe(2);
    expect(store.automerge()).toBe(8);
    expect(store.segments()).toBe(1);
    const hits = await memory.recall("topic7 word3", { mode: "bm25", limit: 50 });
    expect(hits.length).toBe(50);
    expect(hits.every((h) => h.content.includes("topic7") || h.content.includes("word3"))).toBe(true);
  });

  it("writes FTS5's default back when the index stored none", async () => {
    const path = join(tempDir(), "brain.db");
    const store = await watchedStore(path);
    expect(store.automerge()).toBeUndefined();
    await openTestMemory({ path }).import(batch(0, 1_000));
    expect(store.settingsWritten()).toBe(2);
    expect(store.automerge()).toBe(4);
    expect(store.segments()).toBe(1);
  });

  it("keeps automerge for writes that are not merged whole after them", async () => {
    const path = join(tempDir(), "brain.db");
    const store = await watchedStore(path);
    const memory = openTestMemory({ path });
    await memory.import(batch(0, 20_000));
    expect(store.settingsWritten()).toBe(2);
    // Under a tenth of the store: FTS5 keeps merging as it writes, and nothing is owed after.
    await memory.import(batch(20_000, 1_500));
    await memory.store("one", "one more entry about topic3");
    expect(store.settingsWritten()).toBe(2);
    expect(store.segments()).toBeGreaterThan(1);
    // This one with the store() takes the changes to half the store (22 001 of 43 501 entries).
    await memory.import(batch(30_000, 22_000));
    expect(store.settingsWritten()).toBe(4);
    expect(store.segments()).toBe(1);
  });

  it("leaves a bulk write short of half the store to FTS5's tiered merges, owing no merge after it", async () => {
    const path = join(tempDir(), "brain.db");
    const store = await watchedStore(path);
    const logged: [string, Record<string, unknown> | undefined][] = [];
    const memory = openTestMemory({
      path,
      logger: { ...silentLogger, debug: (message, data) => logged.push([message, data]) },
    });
    const messages = () => logged.map(([message]) => message);
    await memory.import(batch(0, 20_000));
    expect(messages()).toEqual(["full-text index merged"]);
    // 3 000 changes: past a tenth of the store (2 300), short of half (11 500).
    await memory.import(batch(20_000, 3_000));
    expect(messages()).toEqual(["full-text index merged"]);
    // Automerge stayed on (only the first import wrote it twice), and merged the new segments in tiers.
    expect(store.settingsWritten()).toBe(2);
    expect(store.segments()).toBeGreaterThan(1);
    expect(store.segments()).toBeLessThanOrEqual(8);
    // The small writes after it owe it nothing: 200 of them are short of a tenth on their own.
    for (let i = 0; i < 200; i++) await memory.store(`s${i}`, `note ${i} about topic${i % 50}`);
    expect(messages()).toEqual(["full-text index merged"]);
    expect((await memory.recall("topic7 word3", { mode: "bm25", limit: 50 })).length).toBe(50);
    // Deletions count, however many at once: 3 000 of them and the 200 stores start the merge.
    const refs = Array.from({ length: 3_000 }, (_, i) => ({ key: `k${i}` }));
    expect(await memory.forgetMany(refs)).toBe(3_000);
    expect(logged[1]).toEqual(["full-text index merge started", { changes: 3_200, entries: 20_200 }]);
  });

  it("counts the rows a bulk write rewrites, as it counts deletions", async () => {
    const logged: [string, Record<string, unknown> | undefined][] = [];
    const memory = openTestMemory({
      logger: { ...silentLogger, debug: (message, data) => logged.push([message, data]) },
    });
    await memory.import(batch(0, 20_000));
    // 3 000 of the same keys with new text: short of half the store, but each leaves its old
    // postings behind, and 3 000 is past a tenth of the store.
    const rewritten = batch(0, 3_000).map((entry) => ({ ...entry, content: `${entry.content} revised` }));
    await memory.import(rewritten);
    expect(logged.map(([message]) => message)).toEqual([
      "full-text index merged",
      "full-text index merge started",
    ]);
    expect(logged[1]?.[1]).toEqual({ changes: 3_000, entries: 20_000 });
    expect((await memory.recall("revised", { mode: "bm25", limit: 1_000 })).length).toBe(1_000);
  });

  it("leaves the setting and the store as they were when the write fails", async () => {
    const path = join(tempDir(), "brain.db");
    const store = await watchedStore(path, 8);
    const raw = new Database(path);
    raw.exec(`CREATE TRIGGER refuse_bad BEFORE INSERT ON memories WHEN NEW.key = 'bad'
      BEGIN SELECT RAISE(ABORT, 'refused'); END`);
    raw.close();
    const memory = openTestMemory({ path });
    await expect(
      memory.import([...batch(0, 1_999), { key: "bad", content: "refused" }]),
    ).rejects.toMatchObject({
      code: "STORAGE",
    });
    expect(store.settingsWritten()).toBe(0);
    expect(store.automerge()).toBe(8);
    expect(await memory.count()).toBe(0);
    await memory.import(batch(0, 2_000));
    expect(store.settingsWritten()).toBe(2);
    expect(await memory.count()).toBe(2_000);
    expect((await memory.recall("topic7", { mode: "bm25", limit: 100 })).length).toBe(40);
  });

  it("logs a failed whole merge, never throws it, and keeps the write and the setting", () => {
    const db = new Database(":memory:");
    onTestFinished(() => {
      db.close();
    });
    db.exec(CREATE_MEMORIES);
    db.exec(CREATE_FTS);
    const real = createStatementCache(db);
    // The merge fails as it would on a full disk; every other statement is the real one.
    const statements: StatementCache = {
      ...real,
      get: (sql) =>
        sql.includes("VALUES ('optimize')")
          ? db.prepare("INSERT INTO no_such_table VALUES (1)")
          : real.get(sql),
    };
    const logged: [string, Record<string, unknown> | undefined][] = [];
    const merge = createIndexMerge(statements, {
      ...silentLogger,
      debug: (message, data) => logged.push([message, data]),
    });
    expect(merge.mergesWhole(1_000)).toBe(true);
    const insertRow = db.prepare(
      "INSERT INTO memories (rid, id, key, content, created_at, updated_at) VALUES (?, ?, ?, ?, '', '')",
    );
    const insertText = db.prepare(
      "INSERT INTO memories_fts (rowid, key, body, context) VALUES (?, ?, ?, '')",
    );
    const written = db.transaction(() =>
      merge.writeWhole(() => {
        for (let rid = 1; rid <= 1_000; rid++) {
          insertRow.run(rid, `id${rid}`, `k${rid}`, `note ${rid}`);
          insertText.run(rid, `k${rid}`, `note ${rid}`);
        }
        return 1_000;
      }),
    )();
    merge.changed(written, true);
    expect(db.prepare("SELECT count(*) FROM memories").pluck().get()).toBe(1_000);
    expect(
      db.prepare("SELECT count(*) FROM memories_fts WHERE memories_fts MATCH 'note'").pluck().get(),
    ).toBe(1_000);
    expect(db.prepare("SELECT v FROM memories_fts_config WHERE k = 'automerge'").pluck().get()).toBe(4);
    expect(logged.map(([message]) => message)).toEqual(["full-text index merge skipped"]);
    expect(String(logged[0]?.[1]?.error)).toContain("no_such_table");
  });
});
