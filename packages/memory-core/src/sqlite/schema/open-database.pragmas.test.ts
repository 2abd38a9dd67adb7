import { join } from "node:path";
import { silentLogger } from "@claw/memory-api";
import { describe, expect, it, onTestFinished } from "vitest";
import { tempDir } from "../test-support/temp-memory.js";
import { openDatabase } from "./open-database.js";

function opened(sizes: { cacheKib?: number; mmapBytes?: number } = {}) {
  const { db } = openDatabase(join(tempDir(), "brain.db"), {
    logger: silentLogger,
    loadVectorExtension: false,
    ...sizes,
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

  it("take the page cache (KiB) and the map (bytes) asked for", () => {
    const db = opened({ cacheKib: 16 * 1024, mmapBytes: 64 * 1024 * 1024 });
    expect(db.pragma("cache_size", { simple: true })).toBe(-16_384);
    expect(db.pragma("mmap_size", { simple: true })).toBe(67_108_864);
  });

  it("map no more than SQLite's limit (~2 GiB), and nothing when asked for 0", () => {
    expect(opened({ mmapBytes: 2048 * 1024 * 1024 }).pragma("mmap_size", { simple: true })).toBe(0x7fff0000);
    expect(opened({ mmapBytes: 0 }).pragma("mmap_size", { simple: true })).toBe(0);
  });
});
