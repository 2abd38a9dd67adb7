import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { SCHEMA_VERSION } from "../schema/schema.js";
import { SqliteMemory } from "../sqlite-memory.js";
import { openTestMemory, tempDir } from "../test-support/temp-memory.js";

/** Reads the file with a plain connection (no extension, no migration). */
function inspect<T>(path: string, read: (db: Database.Database) => T): T {
  const db = new Database(path, { readonly: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

function rowids(path: string): { fts: number[]; memories: number[] } {
  return inspect(path, (db) => ({
    fts: (db.prepare("SELECT rowid FROM memories_fts ORDER BY rowid").all() as Array<{ rowid: number }>).map(
      (r) => r.rowid,
    ),
    memories: (db.prepare("SELECT rid FROM memories ORDER BY rid").all() as Array<{ rid: number }>).map(
      (r) => r.rid,
    ),
  }));
}

/** The index holds one row per entry, no more, no fewer. */
function expectInSync(path: string): void {
  const { fts, memories } = rowids(path);
  expect(fts).toEqual(memories);
  const counts = inspect(
    path,
    (db) =>
      db
        .prepare("SELECT (SELECT count(*) FROM memories_fts) AS fts, (SELECT count(*) FROM memories) AS m")
        .get() as { fts: number; m: number },
  );
  expect(counts.fts).toBe(counts.m);
}

/** Keys of the entries whose indexed text matches `word`, straight from the index. */
function indexed(path: string, word: string): string[] {
  return inspect(path, (db) =>
    (
      db
        .prepare(
          `SELECT m.key FROM memories_fts f JOIN memories m ON m.rid = f.rowid
           WHERE memories_fts MATCH ? ORDER BY m.key`,
        )
        .all(`"${word}"`) as Array<{ key: string }>
    ).map((r) => r.key),
  );
}

function triggersOf(path: string): string[] {
  return inspect(path, (db) =>
    (
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger'").all() as Array<{ name: string }>
    ).map((t) => t.name),
  );
}

/** FTS5's pending-terms buffer limit as stored with the index (see fts-index.ts for why it is set). */
function hashSizeOf(path: string): unknown {
  return inspect(
    path,
    (db) =>
      (
        db.prepare("SELECT v FROM memories_fts_config WHERE k = 'hashsize'").get() as
          | { v: unknown }
          | undefined
      )?.v,
  );
}

function openAt() {
  const path = join(tempDir(), "brain.db");
  return { path, memory: openTestMemory({ path }) };
}

describe("the full-text index follows every write", () => {
  it("store, upsert, forget, purgeNamespace and purgeSession leave exactly the memories' rows", async () => {
    const { path, memory } = openAt();
    await memory.store("editor", "The user edits code in Vim");
    await memory.store("pet", "A dog named Rex", { sessionId: "s-1" });
    await memory.store("walk", "Rex walks at noon", { sessionId: "s-1" });
    await memory.store("team", "Standups are at nine", { namespace: "work" });
    await memory.store("lunch", "Lunch is at noon", { namespace: "work" });
    await memory.store("fruit", "我最喜欢的水果是苹果");
    expectInSync(path);

    await memory.store("editor", "The user edits code in Helix");
    expectInSync(path);
    expect(indexed(path, "vim")).toEqual([]);
    expect(indexed(path, "helix")).toEqual(["editor"]);
    expect(await memory.recall("Vim", { mode: "bm25" })).toEqual([]);
    expect((await memory.recall("Helix", { mode: "bm25" })).map((e) => e.key)).toEqual(["editor"]);

    await memory.store("fruit", "My favourite fruit is the apple");
    expectInSync(path);
    expect(indexed(path, "苹果")).toEqual([]);
    expect(indexed(path, "apple")).toEqual(["fruit"]);

    expect(await memory.forget("editor")).toBe(true);
    expectInSync(path);
    expect(indexed(path, "helix")).toEqual([]);

    expect(await memory.purgeSession("s-1")).toBe(2);
    expectInSync(path);
    expect(indexed(path, "rex")).toEqual([]);

    expect(await memory.purgeNamespace("work")).toBe(2);
    expectInSync(path);
    expect(indexed(path, "noon")).toEqual([]);
    expect(rowids(path).fts).toHaveLength(1);
  });

  it("bounds the index's pending-terms buffer", () => {
    const { path } = openAt();
    expect(hashSizeOf(path)).toBe(262_144);
  });

  it("an upsert with the same content keeps one index row that still matches", async () => {
    const { path, memory } = openAt();
    await memory.store("editor", "The user edits code in Vim");
    await memory.store("editor", "The user edits code in Vim", { category: "daily" });
    expectInSync(path);
    expect(indexed(path, "vim")).toEqual(["editor"]);
  });

  it("import and reindex leave exactly the memories' rows", async () => {
    const { path, memory } = openAt();
    await memory.import([
      { key: "a", content: "alpha words here" },
      { key: "b", content: "beta words here" },
      { key: "a", content: "alpha replaced by gamma" },
    ]);
    expectInSync(path);
    expect(indexed(path, "alpha")).toEqual(["a"]);
    expect(indexed(path, "here")).toEqual(["b"]);
    expect(await memory.reindex()).toBe(2);
    expectInSync(path);
    expect(indexed(path, "gamma")).toEqual(["a"]);
  });
});

// Version 2 kept the index with these triggers.
const VERSION_2_TRIGGERS = `
CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories BEGIN
  INSERT INTO memories_fts(rowid, key, body) VALUES (new.rid, new.key, coalesce(new.fts_text, new.content));
END;
CREATE TRIGGER memories_fts_delete AFTER DELETE ON memories BEGIN
  DELETE FROM memories_fts WHERE rowid = old.rid;
END;
CREATE TRIGGER memories_fts_update AFTER UPDATE OF key, content, fts_text ON memories BEGIN
  DELETE FROM memories_fts WHERE rowid = old.rid;
  INSERT INTO memories_fts(rowid, key, body) VALUES (new.rid, new.key, coalesce(new.fts_text, new.content));
END;
UPDATE meta SET value = '2' WHERE key = 'schema_version';
`;

describe("opening a database of schema version 2", () => {
  it("drops the index triggers, keeps the index and keeps it in sync from then on", async () => {
    const path = join(tempDir(), "brain.db");
    const before = SqliteMemory.open({ path });
    await before.store("editor", "The user edits code in Vim");
    await before.store("pet", "A dog named Rex");
    await before.close();
    const db = new Database(path);
    db.exec(VERSION_2_TRIGGERS);
    // Version 2 left FTS5's default of 1 MB.
    db.exec("INSERT INTO memories_fts(memories_fts, rank) VALUES ('hashsize', 1048576)");
    db.close();
    expect(triggersOf(path).sort()).toEqual([
      "memories_fts_delete",
      "memories_fts_insert",
      "memories_fts_update",
    ]);

    const memory = SqliteMemory.open({ path });
    try {
      expect(triggersOf(path)).toEqual([]);
      expect(hashSizeOf(path)).toBe(262_144);
      expect((await memory.status()).schemaVersion).toBe(SCHEMA_VERSION);
      expectInSync(path);
      expect((await memory.recall("Vim", { mode: "bm25" })).map((e) => e.key)).toEqual(["editor"]);

      await memory.store("editor", "The user edits code in Helix");
      await memory.store("walk", "Rex walks at noon");
      expect(await memory.forget("pet")).toBe(true);
      expectInSync(path);
      expect(indexed(path, "vim")).toEqual([]);
      expect(indexed(path, "rex")).toEqual(["walk"]);
    } finally {
      await memory.close();
    }
  });
});
