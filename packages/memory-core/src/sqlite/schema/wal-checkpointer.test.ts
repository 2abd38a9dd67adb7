import { existsSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it, onTestFinished } from "vitest";
import { capturingLogger } from "../../testkit/contract-harness.js";
import { tempDir } from "../test-support/temp-memory.js";
import { createWalCheckpointer, WAL_AUTOCHECKPOINT_PAGES, type WalCheckpointer } from "./wal-checkpointer.js";

/** A WAL database on a temp file with one table, closed after the test. */
function walDatabase(): Database.Database {
  const db = new Database(join(tempDir(), "brain.db"));
  db.pragma("journal_mode = WAL");
  db.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)");
  onTestFinished(() => {
    if (db.open) db.close();
  });
  return db;
}

/** Writes `rows` rows of ~200 bytes in one transaction; returns the automatic checkpoint it ran under. */
function writeRows(db: Database.Database, rows: number): number {
  const autocheckpoint = db.pragma("wal_autocheckpoint", { simple: true }) as number;
  const insert = db.prepare("INSERT INTO notes (body) VALUES (?)");
  db.transaction(() => {
    for (let i = 0; i < rows; i++) insert.run(`note ${i} `.padEnd(200, "x"));
  })();
  return autocheckpoint;
}

function checkpointerOf(db: Database.Database, logger = capturingLogger()): WalCheckpointer {
  const checkpointer = createWalCheckpointer({ db, logger });
  onTestFinished(() => checkpointer.close());
  return checkpointer;
}

const dataVersion = (db: Database.Database) => db.pragma("data_version", { simple: true }) as number;

describe("bulk writes are checkpointed by a worker thread", () => {
  it("a bulk write runs without the automatic checkpoint, and the worker copies the whole log after it", async () => {
    const db = walDatabase();
    const checkpointer = checkpointerOf(db);
    const version = dataVersion(db);

    const during = checkpointer.write(WAL_AUTOCHECKPOINT_PAGES, () => writeRows(db, 5_000));
    const result = await checkpointer.settled();

    expect(during).toBe(0);
    expect(db.pragma("wal_autocheckpoint", { simple: true })).toBe(WAL_AUTOCHECKPOINT_PAGES);
    expect(result?.busy).toBe(0);
    expect(result?.log).toBeGreaterThan(WAL_AUTOCHECKPOINT_PAGES / 4);
    expect(result?.checkpointed).toBe(result?.log);
    expect(checkpointer.offThread).toBe(true);
    // A checkpoint changes no content: the writer's caches, keyed on data_version, stay valid.
    expect(dataVersion(db)).toBe(version);
    expect(db.prepare("SELECT count(*) FROM notes").pluck().get()).toBe(5_000);
  });

  it("a smaller write keeps the automatic checkpoint and asks the worker for nothing", async () => {
    const db = walDatabase();
    const checkpointer = checkpointerOf(db);

    const during = checkpointer.write(WAL_AUTOCHECKPOINT_PAGES - 1, () => writeRows(db, 10));

    expect(during).toBe(WAL_AUTOCHECKPOINT_PAGES);
    expect(await checkpointer.settled()).toBeNull();
  });

  it("a bulk write that throws restores the automatic checkpoint", async () => {
    const db = walDatabase();
    const checkpointer = checkpointerOf(db);
    const failure = new Error("constraint failed");

    expect(() =>
      checkpointer.write(WAL_AUTOCHECKPOINT_PAGES, () => {
        writeRows(db, 10);
        throw failure;
      }),
    ).toThrow(failure);

    expect(db.pragma("wal_autocheckpoint", { simple: true })).toBe(WAL_AUTOCHECKPOINT_PAGES);
    expect((await checkpointer.settled())?.busy).toBe(0);
  });

  it("close() waits for the worker's connection, so the writer's close is the last and removes the log", async () => {
    const db = walDatabase();
    const checkpointer = createWalCheckpointer({ db, logger: capturingLogger() });
    checkpointer.write(WAL_AUTOCHECKPOINT_PAGES, () => writeRows(db, 5_000));
    // The worker's connection is open once it has answered.
    await checkpointer.settled();
    checkpointer.write(WAL_AUTOCHECKPOINT_PAGES, () => writeRows(db, 5_000));

    await checkpointer.close();
    db.close();

    expect(existsSync(`${db.name}-wal`)).toBe(false);
    const reopened = new Database(db.name, { readonly: true });
    expect(reopened.prepare("SELECT count(*) FROM notes").pluck().get()).toBe(10_000);
    reopened.close();
  });

  it("after close() a bulk write runs on the writing thread with the automatic checkpoint", async () => {
    const db = walDatabase();
    const checkpointer = createWalCheckpointer({ db, logger: capturingLogger() });
    checkpointer.write(WAL_AUTOCHECKPOINT_PAGES, () => writeRows(db, 10));
    await checkpointer.close();

    expect(checkpointer.write(WAL_AUTOCHECKPOINT_PAGES, () => writeRows(db, 10))).toBe(
      WAL_AUTOCHECKPOINT_PAGES,
    );
  });
});

describe("without a worker, bulk writes checkpoint as before", () => {
  it("a worker that cannot start is reported once, and later bulk writes keep the automatic checkpoint", async () => {
    const db = walDatabase();
    const logger = capturingLogger();
    const degraded: string[] = [];
    const checkpointer = createWalCheckpointer({
      db,
      logger,
      workerUrl: new URL("./no-such-worker.js", import.meta.url),
      onDegraded: (warning) => degraded.push(warning),
    });
    onTestFinished(() => checkpointer.close());

    checkpointer.write(WAL_AUTOCHECKPOINT_PAGES, () => writeRows(db, 10));
    expect(await checkpointer.settled()).toBeNull();
    const later = checkpointer.write(WAL_AUTOCHECKPOINT_PAGES, () => writeRows(db, 10));
    checkpointer.write(WAL_AUTOCHECKPOINT_PAGES, () => writeRows(db, 10));

    expect(later).toBe(WAL_AUTOCHECKPOINT_PAGES);
    expect(checkpointer.offThread).toBe(false);
    expect(logger.warnings).toEqual(["bulk writes checkpoint on the writing thread"]);
    // The same degradation, once, for status().warnings, with why.
    expect(degraded).toHaveLength(1);
    expect(degraded[0]).toMatch(/^bulk writes checkpoint on the writing thread: .*no-such-worker/);
    expect(db.prepare("SELECT count(*) FROM notes").pluck().get()).toBe(30);
  });

  it("a database in memory has no log to hand over: no worker, the automatic checkpoint stays", async () => {
    const db = new Database(":memory:");
    onTestFinished(() => {
      db.close();
    });
    db.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)");
    const logger = capturingLogger();
    const checkpointer = checkpointerOf(db, logger);

    const during = checkpointer.write(WAL_AUTOCHECKPOINT_PAGES, () => writeRows(db, 10));

    expect(during).toBe(WAL_AUTOCHECKPOINT_PAGES);
    expect(checkpointer.offThread).toBe(false);
    expect(await checkpointer.settled()).toBeNull();
    expect(logger.warnings).toEqual([]);
  });
});
