import { join } from "node:path";
import { silentLogger } from "@claw/memory-api";
import { describe, expect, it, onTestFinished } from "vitest";
import { tempDir } from "../test-support/temp-memory.js";
import { openDatabase } from "./open-database.js";

function opened(cacheKib?: number) {
  const { db } = openDatabase(join(tempDir(), "brain.db"), {
    logger: silentLogger,
    loadVectorExtension: false,
    ...(cacheKib === undefined ? {} : { cacheKib }),
  });
  onTestFinished(() => {
    db.close();
  });
  return db;
}

describe("a connection's PRAGMAs", () => {
  it("are the seed's: WAL, synchronous NORMAL, an 8 MB map and a 2 MB page cache", () => {
    const db = opened();
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(db.pragma("synchronous", { simple: true })).toBe(1);
    expect(db.pragma("mmap_size", { simple: true })).toBe(8_388_608);
    expect(db.pragma("cache_size", { simple: true })).toBe(-2000);
  });

  it("take the page cache asked for, in KiB", () => {
    expect(opened(16 * 1024).pragma("cache_size", { simple: true })).toBe(-16_384);
  });
});
