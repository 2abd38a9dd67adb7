import { existsSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG } from "../config/config-schema.js";
import { SqliteMemory } from "./sqlite-memory.js";
import { expectNotDamaged, expectStorageFull, fillerText } from "./test-support/full-store.js";
import { capturingLogger, tempDir } from "./test-support/temp-memory.js";

/** Enough entries for the write to be a bulk one, checkpointed by the worker thread (wal-checkpointer.ts). */
const BULK = 2_000;

function entries(prefix: string, count: number, namespace = "default") {
  return Array.from({ length: count }, (_, i) => ({
    namespace,
    key: `${prefix}${i}`,
    content: fillerText(i),
  }));
}

describe("a bulk import into a full database", () => {
  it("fails with STORAGE_FULL, writes nothing, and succeeds once room is freed; the store closes cleanly", async () => {
    const path = join(tempDir(), "brain.db");
    const logger = capturingLogger();
    const settings = { ...DEFAULT_CONFIG.memory, maxDatabaseMb: 3.5 };
    const memory = SqliteMemory.open({ path, settings, logger });
    expect(await memory.import(entries("old-", 1_500, "old"))).toBe(1_500);

    const refusal = await memory.import(entries("bulk-", BULK)).catch((error: unknown) => error);
    // The checkpoint the worker was asked for after the failed write has run.
    await memory.flush();

    expectStorageFull(refusal);
    expect(await memory.count()).toBe(1_500);
    expect(await memory.count({ namespace: "default" })).toBe(0);
    expect(await memory.get("bulk-0")).toBeNull();
    await expectNotDamaged(memory, path);

    expect(await memory.purgeNamespace("old")).toBe(1_500);
    expect(await memory.import(entries("bulk-", BULK))).toBe(BULK);
    await memory.flush();
    const { warnings } = await memory.status();
    await memory.close();

    // The worker kept checkpointing off the writing thread; close() copied the whole log back.
    expect(warnings ?? []).toEqual([]);
    expect(logger.warnings).toEqual([]);
    expect(existsSync(`${path}-wal`)).toBe(false);
    const db = new Database(path, { readonly: true });
    try {
      expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
      expect(db.prepare("SELECT count(*) FROM memories").pluck().get()).toBe(BULK);
    } finally {
      db.close();
    }
  });
});
