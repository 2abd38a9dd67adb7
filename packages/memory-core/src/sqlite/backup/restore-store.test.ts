import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { MemoryError } from "@claw/memory-api";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { rejectionOf } from "../../testkit/rejection-of.js";
import { openTestMemory, tempDir } from "../test-support/temp-memory.js";
import { restoreSqliteStore } from "./restore-store.js";

const failure = async (promise: Promise<unknown>) => (await rejectionOf(promise)) as MemoryError;

/** A backup of a store holding `keys`, taken with Memory.backup. */
async function backupOf(keys: readonly string[]): Promise<string> {
  const memory = openTestMemory();
  await memory.import(keys.map((key) => ({ key, content: `the backup's ${key}` })));
  const path = join(tempDir(), "backup.db");
  await memory.backup(path);
  await memory.close();
  return path;
}

/** A workspace whose brain.db holds `keys` (closed again). */
async function workspaceWith(keys: readonly string[]): Promise<{ dir: string; dbPath: string }> {
  const dir = tempDir();
  const dbPath = join(dir, "brain.db");
  const memory = openTestMemory({ path: dbPath });
  await memory.import(keys.map((key) => ({ key, content: `the workspace's ${key}` })));
  await memory.close();
  return { dir, dbPath };
}

/** The keys and contents of the store at `path`, read through a Memory. */
async function contentsOf(path: string): Promise<Array<[string, string]>> {
  const memory = openTestMemory({ path });
  const entries = await memory.export();
  await memory.close();
  return entries.map((e): [string, string] => [e.key, e.content]).sort();
}

describe("restoreSqliteStore", () => {
  it("restores a backup into a fresh workspace", async () => {
    const file = await backupOf(["a", "b"]);
    const dbPath = join(tempDir(), "fresh", "brain.db");
    expect(await restoreSqliteStore({ file, dbPath })).toEqual({ path: dbPath, entries: 2 });
    expect(await contentsOf(dbPath)).toEqual([
      ["a", "the backup's a"],
      ["b", "the backup's b"],
    ]);
  });

  it("replaces an empty store without force, keeping it beside", async () => {
    const file = await backupOf(["a"]);
    const { dbPath } = await workspaceWith([]);
    const report = await restoreSqliteStore({ file, dbPath });
    expect(report).toEqual({
      path: dbPath,
      entries: 1,
      replaced: { path: `${dbPath}.before-restore`, entries: 0 },
    });
  });

  it("refuses a store that holds entries without force (CONFLICT), changing nothing", async () => {
    const file = await backupOf(["a"]);
    const { dir, dbPath } = await workspaceWith(["mine"]);
    const before = readFileSync(dbPath);
    const listing = readdirSync(dir).sort();
    const error = await failure(restoreSqliteStore({ file, dbPath }));
    expect(error.code).toBe("CONFLICT");
    expect(error.message).toContain("holds 1 entry");
    expect(error.message).toContain("--force");
    expect(readFileSync(dbPath).equals(before)).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(listing);
    expect(await contentsOf(dbPath)).toEqual([["mine", "the workspace's mine"]]);
  });

  it("with force, keeps the replaced store as brain.db.before-restore, whole and standalone", async () => {
    const file = await backupOf(["a", "b", "c"]);
    const { dir, dbPath } = await workspaceWith(["mine", "yours"]);
    const report = await restoreSqliteStore({ file, dbPath, force: true });
    expect(report).toEqual({
      path: dbPath,
      entries: 3,
      replaced: { path: `${dbPath}.before-restore`, entries: 2 },
    });
    expect(readdirSync(dir).sort()).toEqual(["brain.db", "brain.db.before-restore"]);
    // The kept file needs no log beside it: it opens read-only and holds the old entries.
    const kept = new Database(`${dbPath}.before-restore`, { readonly: true, fileMustExist: true });
    try {
      expect(kept.pragma("integrity_check", { simple: true })).toBe("ok");
      expect(kept.prepare("SELECT key FROM memories ORDER BY key").pluck().all()).toEqual(["mine", "yours"]);
    } finally {
      kept.close();
    }
    expect(existsSync(`${dbPath}.before-restore-wal`)).toBe(false);
    expect((await contentsOf(dbPath)).map(([key]) => key)).toEqual(["a", "b", "c"]);
  });

  it("refuses a file that is not a store (INVALID_INPUT naming file), changing nothing", async () => {
    const { dir, dbPath } = await workspaceWith(["mine"]);
    const before = readFileSync(dbPath);
    const other = tempDir();
    const text = join(other, "notes.txt");
    writeFileSync(text, "not a database at all, but long enough to look like one might be".repeat(100));
    const plain = join(other, "plain.db");
    const db = new Database(plain);
    db.exec("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('x')");
    db.close();
    const cases: Array<[string, string]> = [
      [text, "not a readable SQLite database"],
      [plain, "no memories table"],
      [join(other, "missing.db"), "no such file"],
      [other, "not a file"],
      [dbPath, "live database"],
    ];
    for (const [file, why] of cases) {
      const error = await failure(restoreSqliteStore({ file, dbPath, force: true }));
      expect(error.code).toBe("INVALID_INPUT");
      expect(error.field).toBe("file");
      expect(error.message).toContain(why);
    }
    expect(readFileSync(dbPath).equals(before)).toBe(true);
    expect(readdirSync(dir)).toEqual(["brain.db"]);
  });

  it("refuses a store another connection has open (CONFLICT), even with force", async () => {
    const file = await backupOf(["a"]);
    const dir = tempDir();
    const dbPath = join(dir, "brain.db");
    const open = openTestMemory({ path: dbPath });
    await open.store("mine", "in use");
    const error = await failure(restoreSqliteStore({ file, dbPath, force: true }));
    expect(error.code).toBe("CONFLICT");
    expect(error.message).toContain("open in another process");
    expect((await open.get("mine"))?.content).toBe("in use");
    expect(readdirSync(dir).filter((f) => f.includes("before-restore") || f.includes("tmp"))).toEqual([]);
  });
});

describe("restoreSqliteStore over a damaged store", () => {
  it("needs force, then keeps the damaged file with its marker beside, and the new store is writable", async () => {
    const file = await backupOf(["a"]);
    const { dir, dbPath } = await workspaceWith(["mine"]);
    // Everything after the first page is overwritten, as a bad disk leaves it; the store had noticed.
    const bytes = readFileSync(dbPath);
    bytes.fill(0x5a, 4096);
    writeFileSync(dbPath, bytes);
    writeFileSync(
      `${dbPath}.damaged`,
      `${JSON.stringify({ at: "2026-01-01T00:00:00Z", reason: "malformed" })}\n`,
    );

    const refused = await failure(restoreSqliteStore({ file, dbPath }));
    expect(refused.code).toBe("CONFLICT");
    expect(refused.message).toContain("cannot be read");
    expect(readFileSync(dbPath).equals(bytes)).toBe(true);

    const report = await restoreSqliteStore({ file, dbPath, force: true });
    expect(report.replaced).toEqual({ path: `${dbPath}.before-restore`, entries: null });
    expect(readFileSync(`${dbPath}.before-restore`).equals(bytes)).toBe(true);
    expect(readdirSync(dir).sort()).toEqual([
      "brain.db",
      "brain.db.before-restore",
      "brain.db.before-restore.damaged",
    ]);
    const memory = openTestMemory({ path: dbPath });
    await memory.store("after", "written to the restored store");
    expect((await memory.export()).map((e) => e.key).sort()).toEqual(["a", "after"]);
  });

  it("drops a log and a marker a deleted database left behind", async () => {
    const file = await backupOf(["a"]);
    const dir = tempDir();
    const dbPath = join(dir, "brain.db");
    writeFileSync(`${dbPath}-wal`, "a stale log");
    writeFileSync(`${dbPath}.damaged`, "{}\n");
    expect(await restoreSqliteStore({ file, dbPath })).toEqual({ path: dbPath, entries: 1 });
    expect(readdirSync(dir)).toEqual(["brain.db"]);
    expect(await contentsOf(dbPath)).toEqual([["a", "the backup's a"]]);
  });
});
