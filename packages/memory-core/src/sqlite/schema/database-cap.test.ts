import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { isMemoryError, type Logger } from "@claw/memory-api";
import { describe, expect, it, onTestFinished } from "vitest";
import { DEFAULT_CONFIG } from "../../config/config-schema.js";
import { loadConfigFromToml } from "../../config/load-config.js";
import { parseConfig } from "../../config/parse-config.js";
import { openStore } from "../open-store.js";
import { fillerText } from "../test-support/full-store.js";
import { openTestMemory, tempDir } from "../test-support/temp-memory.js";
import { capPages } from "./database-cap.js";
import { connectionSizes } from "./open-database.js";

/** SQLite's default (and largest) max_page_count. */
const NO_CAP = 4_294_967_294;

function infoLogger(): Logger & { infos: Array<[string, unknown]> } {
  const infos: Array<[string, unknown]> = [];
  return { infos, debug() {}, info: (message, data) => infos.push([message, data]), warn() {}, error() {} };
}

function opened(path: string, maxDatabaseMb: number, logger: Logger = infoLogger()) {
  const store = openStore({
    path,
    provider: null,
    logger,
    newId: randomUUID,
    loadVectorExtension: false,
    sizes: connectionSizes(DEFAULT_CONFIG.memory),
    maxDatabaseMb,
  });
  onTestFinished(() => {
    store.db.close();
  });
  return store;
}

describe("max_database_mb", () => {
  it("is 0 (no cap) by default, and a number of MiB >= 0 in the [memory] table", () => {
    expect(DEFAULT_CONFIG.memory.maxDatabaseMb).toBe(0);
    expect(loadConfigFromToml("[memory]\nmax_database_mb = 2.5\n").memory.maxDatabaseMb).toBe(2.5);
    let error: unknown;
    try {
      parseConfig({ memory: { maxDatabaseMb: -1 } });
    } catch (thrown) {
      error = thrown;
    }
    expect(isMemoryError(error, "INVALID_INPUT")).toBe(true);
    expect((error as { field?: string }).field).toBe("memory.max_database_mb");
  });

  it("is the cap in pages, rounded up; writes stop a sixteenth short of it (64 KiB to 4 MiB)", () => {
    expect(capPages(1, 4096)).toEqual({ pages: 256, writePages: 240 });
    expect(capPages(0.5, 4096)).toEqual({ pages: 128, writePages: 112 });
    expect(capPages(1.0001, 4096)).toEqual({ pages: 257, writePages: 240 });
    expect(capPages(16, 4096)).toEqual({ pages: 4096, writePages: 3840 });
    expect(capPages(1024, 4096)).toEqual({ pages: 262_144, writePages: 261_120 });
    // Never more than half the cap for a tiny one.
    expect(capPages(0.05, 4096)).toEqual({ pages: 13, writePages: 7 });
  });

  it("is set on the connection as PRAGMA max_page_count, and not at all when 0", () => {
    const capped = opened(join(tempDir(), "brain.db"), 1);
    const uncapped = opened(join(tempDir(), "brain.db"), 0);

    expect(capped.db.pragma("max_page_count", { simple: true })).toBe(240);
    expect(capped.cap).toMatchObject({ pages: 256, writePages: 240 });
    expect(uncapped.db.pragma("max_page_count", { simple: true })).toBe(NO_CAP);
    expect(uncapped.cap.pages).toBeNull();
  });

  it("below the file's size keeps the file at its size, and says so at info", async () => {
    const path = join(tempDir(), "brain.db");
    const memory = openTestMemory({ path });
    await memory.import(Array.from({ length: 400 }, (_, i) => ({ key: `k${i}`, content: fillerText(i) })));
    await memory.close();
    const logger = infoLogger();

    const { db } = opened(path, 0.1, logger);

    const pages = db.pragma("page_count", { simple: true }) as number;
    expect(pages).toBeGreaterThan(capPages(0.1, 4096).pages);
    expect(db.pragma("max_page_count", { simple: true })).toBe(pages);
    expect(logger.infos).toEqual([
      [
        "the database is larger than max_database_mb already: it may not grow past its current size",
        { maxDatabaseMb: 0.1, databaseMb: Math.round(((pages * 4096) / 1024 / 1024) * 100) / 100 },
      ],
    ]);
  });

  it("lets a deletion that erases use the reserve, then holds writes to their share again", () => {
    const { db, cap } = opened(join(tempDir(), "brain.db"), 1);

    const during = cap.freeing(() => db.pragma("max_page_count", { simple: true }));

    expect(during).toBe(256);
    expect(db.pragma("max_page_count", { simple: true })).toBe(240);
  });
});
