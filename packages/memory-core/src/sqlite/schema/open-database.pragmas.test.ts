import { join } from "node:path";
import { silentLogger } from "@claw/memory-api";
import { describe, expect, it, onTestFinished } from "vitest";
import { DEFAULT_CONFIG } from "../../config/config-schema.js";
import { tempDir } from "../test-support/temp-memory.js";
import { type ConnectionSizes, connectionSizes, openDatabase } from "./open-database.js";

/** Seed 000's sizes: a 2 MB page cache and an 8 MB map. */
const SEED_SIZES: ConnectionSizes = { cacheKib: 2000, mmapBytes: 8_388_608 };

function opened(sizes: Partial<ConnectionSizes> = {}) {
  const { db } = openDatabase(join(tempDir(), "brain.db"), {
    logger: silentLogger,
    loadVectorExtension: false,
    sizes: { ...SEED_SIZES, ...sizes },
  });
  onTestFinished(() => {
    db.close();
  });
  return db;
}

describe("a connection's PRAGMAs", () => {
  it("are WAL and synchronous NORMAL, with the sizes asked for (the seed's 8 MB map and 2 MB cache)", () => {
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

  it("take their sizes from the settings, 16 MiB and 2 GiB by default", () => {
    expect(connectionSizes(DEFAULT_CONFIG.memory)).toEqual({ cacheKib: 16_384, mmapBytes: 2_147_483_648 });
    expect(connectionSizes({ sqliteCacheMib: 2, sqliteMmapMib: 0 })).toEqual({
      cacheKib: 2048,
      mmapBytes: 0,
    });
  });

  it("map no more than SQLite's limit (~2 GiB), and nothing when asked for 0", () => {
    expect(opened({ mmapBytes: 2048 * 1024 * 1024 }).pragma("mmap_size", { simple: true })).toBe(0x7fff0000);
    expect(opened({ mmapBytes: 0 }).pragma("mmap_size", { simple: true })).toBe(0);
  });
});
