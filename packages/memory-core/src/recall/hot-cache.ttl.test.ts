import { isMemoryError } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { HotCache } from "./hot-cache.js";

function clock(start = 1_000) {
  let t = start;
  return {
    now: () => t,
    advance: (ms: number): void => {
      t += ms;
    },
  };
}

describe("HotCache TTL", () => {
  it("serves an entry until its ttl has elapsed, then forgets it", () => {
    const c = clock();
    const cache = new HotCache<string>({ maxEntries: 4, ttlMs: 100, now: c.now });
    cache.set("k", "v");
    c.advance(99);
    expect(cache.get("k")).toBe("v");
    c.advance(1);
    expect(cache.get("k")).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it("counts the ttl from the last set, not from a hit", () => {
    const c = clock();
    const cache = new HotCache<number>({ maxEntries: 4, ttlMs: 100, now: c.now });
    cache.set("k", 1);
    c.advance(60);
    expect(cache.get("k")).toBe(1);
    c.advance(40);
    expect(cache.get("k")).toBeUndefined();

    cache.set("k", 2);
    c.advance(60);
    cache.set("k", 3);
    c.advance(60);
    expect(cache.get("k")).toBe(3);
  });

  it("excludes expired entries from size", () => {
    const c = clock();
    const cache = new HotCache<number>({ maxEntries: 4, ttlMs: 100, now: c.now });
    cache.set("old", 1);
    c.advance(50);
    cache.set("new", 2);
    expect(cache.size).toBe(2);
    c.advance(50);
    expect(cache.size).toBe(1);
    expect(cache.get("new")).toBe(2);
  });

  it("evicts expired entries before live ones when full", () => {
    const c = clock();
    const cache = new HotCache<number>({ maxEntries: 2, ttlMs: 100, now: c.now });
    cache.set("live", 1);
    c.advance(10);
    cache.set("stale", 2);
    cache.get("live"); // makes "stale" the least recently used, though "live" expires first
    c.advance(95); // live (set at 1000) expired at 1100; stale (1010) lives until 1110
    cache.set("fresh", 3);
    expect(cache.get("stale")).toBe(2);
    expect(cache.get("fresh")).toBe(3);
    expect(cache.get("live")).toBeUndefined();
  });

  it("with ttl 0 never serves anything", () => {
    const cache = new HotCache<number>({ maxEntries: 4, ttlMs: 0, now: () => 5 });
    cache.set("k", 1);
    expect(cache.get("k")).toBeUndefined();
  });

  it("uses Date.now when no clock is injected", () => {
    const cache = new HotCache<number>({ maxEntries: 1, ttlMs: 60_000 });
    cache.set("k", 1);
    expect(cache.get("k")).toBe(1);
  });

  it("rejects invalid options naming the field", () => {
    for (const [options, field] of [
      [{ maxEntries: -1, ttlMs: 10 }, "maxEntries"],
      [{ maxEntries: 1.5, ttlMs: 10 }, "maxEntries"],
      [{ maxEntries: 1, ttlMs: -1 }, "ttlMs"],
      [{ maxEntries: 1, ttlMs: Number.NaN }, "ttlMs"],
    ] as const) {
      try {
        new HotCache<number>(options);
        expect.unreachable();
      } catch (err) {
        expect(isMemoryError(err, "INVALID_INPUT")).toBe(true);
        expect((err as { field?: string }).field).toBe(field);
      }
    }
  });
});
