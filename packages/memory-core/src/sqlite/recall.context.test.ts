import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { SCHEMA_VERSION } from "./schema/schema.js";
import { openTestMemory, tempDir } from "./test-support/temp-memory.js";

// Neighbour lending off, so that only the indexed context can find the answering turn.
const settings = { sessionContextWeight: 0 };

const turn = (key: string, content: string, minute: number, sessionId = "s1") => ({
  key,
  content,
  category: "conversation",
  sessionId,
  createdAt: `2023-05-08T13:${String(minute).padStart(2, "0")}:00Z`,
});

async function keysFor(memory: ReturnType<typeof openTestMemory>, query: string): Promise<string[]> {
  return (await memory.recall(query, { limit: 10, now: "2023-05-09T00:00:00Z" })).map((e) => e.key);
}

describe("a conversation turn is indexed with the turn before it", () => {
  it("finds an answer by the words of the question it answers", async () => {
    const memory = openTestMemory({ settings });
    await memory.import([
      turn("q", "Melanie: Which sport did you pick up this spring?", 1),
      turn("a", "Caroline: Bouldering, twice a week.", 2),
      turn("x", "Caroline: My cat knocked over a plant.", 3, "s2"),
    ]);
    const found = await keysFor(memory, "which sport did caroline pick up");
    // "x" shares only the name; the answer has the question's words in its context.
    expect(found.indexOf("a")).toBeGreaterThanOrEqual(0);
    expect(found.indexOf("a")).toBeLessThan(found.indexOf("x"));
  });

  it("follows writes out of order and changes of the turn before", async () => {
    const memory = openTestMemory({ settings });
    await memory.store("a", "Caroline: Bouldering, twice a week.", {
      category: "conversation",
      sessionId: "s1",
    });
    expect(await keysFor(memory, "which sport")).toEqual([]);
    // The question arrives later but is dated before the answer.
    const question = turn("q", "Melanie: Which sport did you pick up this spring?", 1);
    await memory.import([{ ...question, createdAt: "2000-01-01T00:00:00Z" }]);
    expect(await keysFor(memory, "which sport")).toContain("a");
    await memory.import([
      { ...question, content: "Melanie: Which instrument do you play?", createdAt: "2000-01-01T00:00:00Z" },
    ]);
    expect(await keysFor(memory, "which sport")).toEqual([]);
    expect(await keysFor(memory, "which instrument")).toEqual(["q", "a"]);
  });

  it("forgets a deleted turn: its words no longer find the turn after it", async () => {
    const memory = openTestMemory({ settings });
    await memory.import([
      turn("q", "Melanie: My door code is 4512, keep it safe", 1),
      turn("a", "Caroline: Noted.", 2),
    ]);
    expect(await keysFor(memory, "door code 4512")).toEqual(["q", "a"]);
    expect(await memory.forget("q")).toBe(true);
    expect(await keysFor(memory, "door code 4512")).toEqual([]);
  });

  it("indexes the same context after a full rebuild", async () => {
    const memory = openTestMemory({ settings });
    await memory.import([
      turn("q", "Melanie: Which sport did you pick up this spring?", 1),
      turn("a", "Caroline: Bouldering, twice a week.", 2),
    ]);
    const before = await keysFor(memory, "which sport spring");
    await memory.reindex();
    expect(await keysFor(memory, "which sport spring")).toEqual(before);
    expect(before).toEqual(["q", "a"]);
  });
});

describe("upgrade of a version 3 database to the context column", () => {
  it("rebuilds the index with contexts, keeping every entry", async () => {
    const path = join(tempDir(), "brain.db");
    const first = openTestMemory({ path, settings });
    await first.import([
      turn("q", "Melanie: Which sport did you pick up this spring?", 1),
      turn("a", "Caroline: Bouldering, twice a week.", 2),
    ]);
    await first.close();
    // Back to version 3's index: key and body only, no context.
    const db = new Database(path);
    db.exec("DROP TABLE memories_fts");
    db.exec(`CREATE VIRTUAL TABLE memories_fts USING fts5(key, body, content='', contentless_delete=1,
      tokenize='porter unicode61 remove_diacritics 2')`);
    db.exec("INSERT INTO memories_fts(rowid, key, body) SELECT rid, key, content FROM memories");
    db.prepare("UPDATE meta SET value = '3' WHERE key = 'schema_version'").run();
    db.close();

    const upgraded = openTestMemory({ path, settings });
    expect(await upgraded.count()).toBe(2);
    expect(await keysFor(upgraded, "which sport")).toEqual(["q", "a"]);
    expect(await keysFor(upgraded, "2023-05-08")).toEqual(["q", "a"]);
    const check = new Database(path, { readonly: true });
    const version = check.prepare("SELECT value FROM meta WHERE key = 'schema_version'").pluck().get();
    const sql = check.prepare("SELECT sql FROM sqlite_master WHERE name = 'memories_fts'").pluck().get();
    check.close();
    expect(version).toBe(String(SCHEMA_VERSION));
    expect(String(sql)).toMatch(/\bcontext\b/);
  });
});
