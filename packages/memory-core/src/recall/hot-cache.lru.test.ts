import { describe, expect, it } from "vitest";
import { DEFAULT_HOT_CACHE_ENTRIES, DEFAULT_HOT_CACHE_TTL_MS, HotCache } from "./hot-cache.js";

const fixedClock = () => 0;

describe("HotCache LRU", () => {
  it("evicts the least recently set entry when full", () => {
    const cache = new HotCache<number>({ maxEntries: 2, ttlMs: 1_000, now: fixedClock });
    cache.set("a", 1);
    cache.set("b", 2);
    cache.set("c", 3);
    expect(cache.get("a")).toBeUndefined();
    expect(cache.get("b")).toBe(2);
    expect(cache.get("c")).toBe(3);
    expect(cache.size).toBe(2);
  });

  it("refreshes the position of an entry on a hit", () => {
    const cache = new HotCache<number>({ maxEntries: 2, ttlMs: 1_000, now: fixedClock });
    cache.set("a", 1);
    cache.set("b", 2);
    expect(cache.get("a")).toBe(1);
    cache.set("c", 3);
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")).toBe(1);
    expect(cache.get("c")).toBe(3);
  });

  it("overwrites an existing key without evicting another", () => {
    const cache = new HotCache<number>({ maxEntries: 2, ttlMs: 1_000, now: fixedClock });
    cache.set("a", 1);
    cache.set("b", 2);
    cache.set("a", 10);
    expect(cache.size).toBe(2);
    cache.set("c", 3); // "b" is now the oldest
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")).toBe(10);
  });

  it("delete removes one entry and clear removes all", () => {
    const cache = new HotCache<number>({ maxEntries: 3, ttlMs: 1_000, now: fixedClock });
    cache.set("a", 1);
    cache.set("b", 2);
    cache.set("c", 3);
    expect(cache.delete("b")).toBe(true);
    expect(cache.delete("b")).toBe(false);
    expect(cache.size).toBe(2);
    cache.clear();
    expect(cache.size).toBe(0);
    expect(cache.get("a")).toBeUndefined();
    expect(cache.get("c")).toBeUndefined();
  });

  it("is disabled when maxEntries is 0", () => {
    const cache = new HotCache<number>({ maxEntries: 0, ttlMs: 1_000, now: fixedClock });
    cache.set("a", 1);
    expect(cache.get("a")).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it("returns the stored value by reference", () => {
    const cache = new HotCache<{ ids: string[] }>({ maxEntries: 1, ttlMs: 1_000, now: fixedClock });
    const value = { ids: ["x"] };
    cache.set("k", value);
    expect(cache.get("k")).toBe(value);
  });

  it("exposes the recall defaults of 256 entries and 5 minutes", () => {
    expect(DEFAULT_HOT_CACHE_ENTRIES).toBe(256);
    expect(DEFAULT_HOT_CACHE_TTL_MS).toBe(300_000);
  });
});
