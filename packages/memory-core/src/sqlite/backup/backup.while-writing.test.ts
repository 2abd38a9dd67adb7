// The test, with real processes: a child writes 2,000 entries in batches of 100 (one
// transaction each) while this process takes online backups of the same file. Every copy opens on
// its own, passes integrity_check and holds a prefix of the writes made of whole batches, each entry
// as written; a restore of one into a fresh workspace exports exactly its entries.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import type { BackupReport } from "@claw/memory-api";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { openTestMemory, tempDir } from "../test-support/temp-memory.js";
import { restoreSqliteStore } from "./restore-store.js";

const here = dirname(fileURLToPath(import.meta.url));
const CHILD = join(here, "..", "test-support", "import-batches.mjs");
const TOTAL = 2000;
const BATCH = 100;
/** The child's pause between batches: it keeps writing for about a second. */
const PAUSE_MS = 30;

// As the child writes them (import-batches.mjs).
const keyOf = (i: number) => `k${String(i).padStart(5, "0")}`;
function contentOf(i: number): string {
  const words: string[] = [];
  for (let w = 0; w < 120; w++) words.push(`w${(i * 31 + w * 7) % 997}`);
  return `entry ${i}: ${words.join(" ")}`;
}

interface Taken {
  report: BackupReport;
  /** Entries the child had reported committed when the backup started and when it ended. */
  before: number;
  after: number;
}

type CopyRow = { key: string; content: string; id: string; created_at: string };

/** Opens a copy read-only, as it is (nothing beside it): its integrity check and its rows by key. */
function readCopy(path: string): { integrity: unknown; rows: CopyRow[] } {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return {
      integrity: db.pragma("integrity_check", { simple: true }),
      rows: db.prepare("SELECT key, content, id, created_at FROM memories ORDER BY key").all() as CopyRow[],
    };
  } finally {
    db.close();
  }
}

/** Every check one copy must pass: whole, standalone, and a prefix of whole batches as written. */
function expectConsistentPrefix({ report, before }: Taken): void {
  const n = report.entries;
  expect(n % BATCH).toBe(0);
  // At least what had been committed when the backup began.
  expect(n).toBeGreaterThanOrEqual(before);
  expect(n).toBeLessThanOrEqual(TOTAL);
  for (const suffix of ["-wal", "-shm", "-journal"])
    expect(existsSync(`${report.path}${suffix}`)).toBe(false);
  const { integrity, rows } = readCopy(report.path);
  expect(integrity).toBe("ok");
  expect(rows.map((r) => r.key)).toEqual(Array.from({ length: n }, (_, i) => keyOf(i)));
  expect(rows.every((r, i) => r.content === contentOf(i))).toBe(true);
}

describe("a backup taken while another process writes", () => {
  it("is a consistent prefix of whole batches, and a restore of it exports exactly its entries", async () => {
    // The child runs the built package, as a user's process would.
    expect(existsSync(join(here, "..", "..", "..", "dist", "index.js"))).toBe(true);
    const dir = tempDir();
    const path = join(dir, "brain.db");
    const child = spawn(process.execPath, [CHILD, path, String(TOTAL), String(BATCH), String(PAUSE_MS)], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    const exited = once(child, "exit");
    let committed = 0;
    let done = false;
    let started: () => void = () => {};
    const firstBatch = new Promise<void>((resolve) => {
      started = resolve;
    });
    const reading = (async () => {
      for await (const line of createInterface({ input: child.stdout })) {
        if (line === "done") done = true;
        else committed = Number(line.split(" ")[1]);
        started();
      }
    })();

    // Backups start once the child has committed its first batch (the file exists, with its
    // schema) and follow each other until it says it is done.
    await firstBatch;
    const memory = openTestMemory({ path, settings: { hotCacheSize: 0 } });
    const taken: Taken[] = [];
    /** The largest copy taken mid-write, kept for the restore (the others are removed once checked). */
    let chosen: Taken | undefined;
    while (!done) {
      const before = committed;
      const report = await memory.backup(join(dir, `backup-${taken.length}.db`));
      const copy = { report, before, after: committed };
      expectConsistentPrefix(copy);
      taken.push(copy);
      const midWrite = report.entries < TOTAL && report.entries > (chosen?.report.entries ?? 0);
      rmSync(midWrite ? (chosen?.report.path ?? "") : report.path, { force: true });
      if (midWrite) chosen = copy;
    }
    await reading;
    const [code] = await exited;
    expect(code).toBe(0);
    const final = { report: await memory.backup(join(dir, "backup-final.db")), before: TOTAL, after: TOTAL };
    expectConsistentPrefix(final);
    expect(final.report.entries).toBe(TOTAL);

    // Copies were taken while the child was writing, and batches were committed during some.
    const whileWriting = taken.filter((t) => t.report.entries > 0 && t.report.entries < TOTAL);
    expect(whileWriting.length).toBeGreaterThanOrEqual(2);
    expect(taken.filter((t) => t.after > t.before).length).toBeGreaterThanOrEqual(1);

    // Restore round-trip: the largest copy taken mid-write, into a fresh workspace.
    if (chosen === undefined) throw new Error("no copy was taken mid-write");
    const fresh = join(tempDir(), "brain.db");
    const restored = await restoreSqliteStore({ file: chosen.report.path, dbPath: fresh });
    expect(restored).toEqual({ path: fresh, entries: chosen.report.entries });
    const reopened = openTestMemory({ path: fresh });
    const exported = await reopened.export();
    const backupRows = readCopy(chosen.report.path).rows;
    expect(
      exported
        .map((e) => ({ key: e.key, content: e.content, id: e.id, created_at: e.createdAt }))
        .sort((a, b) => a.key.localeCompare(b.key)),
    ).toEqual(backupRows);
  }, 120_000);
});
