import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { BackupProgress, MemoryError } from "@claw/memory-api";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG } from "../../config/config-schema.js";
import { createHashingEmbeddingProvider } from "../../embedding/hashing-embedding-provider.js";
import { createBackendMemory } from "../../facade/backend-memory.js";
import { NoneMemory } from "../../none-memory.js";
import { rejectionOf } from "../../testkit/rejection-of.js";
import { uuidV7 } from "../../uuid-v7.js";
import { openSqliteBackend } from "../sqlite-backend.js";
import { SqliteMemory } from "../sqlite-memory.js";
import { openTestMemory, tempDir } from "../test-support/temp-memory.js";
import { onlineBackup } from "./online-backup.js";
import { StoreFileProblem } from "./store-file-check.js";

const failure = async (promise: Promise<unknown>) => (await rejectionOf(promise)) as MemoryError;

/** The file opens read-only with nothing beside it, passes integrity_check, and leaves nothing beside it. */
function expectStandalone(path: string): void {
  const header = readFileSync(path).subarray(18, 20);
  // File format bytes 18 and 19: 1 = rollback journal (2 would need a -wal and -shm to open).
  expect([...header]).toEqual([1, 1]);
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
  } finally {
    db.close();
  }
}

describe("Memory.backup on SQLite", () => {
  it("copies an empty store: no entries, the file's size, a file that opens on its own", async () => {
    const memory = openTestMemory();
    const out = tempDir();
    const path = join(out, "empty.db");
    const report = await memory.backup(path);
    expect(report).toEqual({ path, entries: 0, bytes: statSync(path).size });
    expect(report.bytes).toBeGreaterThan(0);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expectStandalone(path);
    // Neither a temp file nor a -wal/-shm is left in the folder.
    expect(readdirSync(out)).toEqual(["empty.db"]);
  });

  it("copies every entry with its history and vectors: the copy opens as a store", async () => {
    const embeddings = createHashingEmbeddingProvider({ dimensions: 16 });
    const memory = openTestMemory({ embeddings, settings: { deferEmbedding: false } });
    await memory.store("tz", "The user lives in Lisbon");
    await memory.store("tz", "The user lives in Porto");
    await memory.store("gone", "forgotten soon");
    await memory.forget("gone");
    const path = join(tempDir(), "nested", "copy.db");
    const report = await memory.backup(path);
    expect(report.entries).toBe(1);
    expectStandalone(path);

    const copy = SqliteMemory.open({ path, embeddings, settings: DEFAULT_CONFIG.memory });
    try {
      expect((await copy.get("tz"))?.content).toBe("The user lives in Porto");
      expect((await copy.history("tz")).map((v) => v.action)).toEqual(["update", "create"]);
      expect((await copy.history("gone")).map((v) => v.action)).toEqual(["forget", "create"]);
      const [found] = await copy.recall("The user lives in Porto", { mode: "embedding", limit: 1 });
      expect(found?.key).toBe("tz");
      expect((await copy.status()).missingEmbeddings).toBe(0);
    } finally {
      await copy.close();
    }
  });

  it("reports progress in pages: done never decreases, and the last call has done === total", async () => {
    const memory = openTestMemory();
    const filler = "lorem ipsum dolor sit amet ".repeat(40);
    await memory.import(
      Array.from({ length: 3000 }, (_, i) => ({ key: `k${i}`, content: `${i} ${filler}` })),
    );
    const calls: BackupProgress[] = [];
    const report = await memory.backup(join(tempDir(), "progress.db"), {
      onProgress: (progress) => calls.push({ ...progress }),
    });
    expect(report.entries).toBe(3000);
    expect(calls.length).toBeGreaterThanOrEqual(3);
    for (let i = 0; i < calls.length; i++) {
      const { done, total } = calls[i] as BackupProgress;
      expect(done).toBeLessThanOrEqual(total);
      if (i > 0) expect(done).toBeGreaterThanOrEqual((calls[i - 1] as BackupProgress).done);
    }
    const last = calls.at(-1) as BackupProgress;
    expect(last.done).toBe(last.total);
    // Every page of the copy was counted.
    expect(report.bytes).toBe(last.total * 4096);
  });

  it("replaces a file already at the path", async () => {
    const memory = openTestMemory();
    await memory.store("k", "kept in the backup");
    const path = join(tempDir(), "again.db");
    writeFileSync(path, "an older backup");
    expect((await memory.backup(path)).entries).toBe(1);
    expectStandalone(path);
  });

  it("refuses an empty path and the live database or its log as INVALID_INPUT naming path", async () => {
    const dir = tempDir();
    const dbPath = join(dir, "brain.db");
    const memory = openTestMemory({ path: dbPath });
    await memory.store("k", "still here");
    for (const path of ["", "   ", 42 as unknown as string, dbPath, `${dbPath}-wal`, `${dir}/./brain.db`]) {
      const error = await failure(memory.backup(path));
      expect(error.code).toBe("INVALID_INPUT");
      expect(error.field).toBe("path");
    }
    expect((await failure(memory.backup("x.db", { onProgress: 1 as never }))).field).toBe("onProgress");
    expect((await memory.get("k"))?.content).toBe("still here");
    expect(readdirSync(dir).filter((f) => !f.startsWith("brain.db"))).toEqual([]);
  });

  it("is UNAVAILABLE on NoneMemory and for a backend without backups", async () => {
    const none = new NoneMemory();
    expect((await failure(none.backup(join(tempDir(), "none.db")))).code).toBe("UNAVAILABLE");
    expect((await failure(none.backup(""))).field).toBe("path");

    const backend = openSqliteBackend({
      path: join(tempDir(), "brain.db"),
      settings: DEFAULT_CONFIG.memory,
      provider: null,
      logger: { debug() {}, info() {}, warn() {}, error() {} },
      now: () => new Date(),
      newId: uuidV7,
      loadVectorExtension: false,
    });
    const memory = createBackendMemory({ ...backend, backup: undefined });
    try {
      const error = await failure(memory.backup(join(tempDir(), "x.db")));
      expect(error.code).toBe("UNAVAILABLE");
      expect(error.message).toBe("the sqlite store cannot take a backup");
    } finally {
      await memory.close();
    }
  });
});

describe("onlineBackup's failures", () => {
  /** A small store on its own connection, and a folder for the copies. */
  function store(): { db: Database.Database; dbPath: string; out: string } {
    const dbPath = join(tempDir(), "brain.db");
    const db = new Database(dbPath);
    db.pragma("journal_mode = WAL");
    db.exec(
      "CREATE TABLE memories (rid INTEGER PRIMARY KEY, key TEXT); INSERT INTO memories(key) VALUES ('a')",
    );
    return { db, dbPath, out: tempDir() };
  }

  it("removes the temp file and throws STORAGE when the copy fails its check; the destination stays", async () => {
    const { db, dbPath, out } = store();
    const path = join(out, "backup.db");
    writeFileSync(path, "the previous backup");
    const check = () => {
      throw new StoreFileProblem("PRAGMA integrity_check failed: Page 3 is never used");
    };
    const error = await failure(onlineBackup(db, dbPath, { path, aliveAt: "" }, { check }));
    db.close();
    expect(error.code).toBe("STORAGE");
    expect(error.message).toContain("failed its check");
    expect(error.message).toContain("Page 3 is never used");
    expect(readFileSync(path, "utf8")).toBe("the previous backup");
    expect(readdirSync(out)).toEqual(["backup.db"]);
  });

  it("throws what onProgress throws, and leaves nothing behind", async () => {
    const { db, dbPath, out } = store();
    const stop = new Error("stop here");
    const onProgress = () => {
      throw stop;
    };
    const error = await onlineBackup(db, dbPath, { path: join(out, "b.db"), aliveAt: "", onProgress }).catch(
      (e: unknown) => e,
    );
    db.close();
    expect(error).toBe(stop);
    expect(readdirSync(out)).toEqual([]);
  });

  it("is STORAGE when the destination cannot be replaced (a folder), leaving no temp file", async () => {
    const { db, dbPath, out } = store();
    mkdirSync(join(out, "taken", "inside"), { recursive: true });
    const error = await failure(onlineBackup(db, dbPath, { path: join(out, "taken"), aliveAt: "" }));
    db.close();
    expect(error.code).toBe("STORAGE");
    expect(readdirSync(out)).toEqual(["taken"]);
  });
});
