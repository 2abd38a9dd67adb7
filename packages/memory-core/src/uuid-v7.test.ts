import { describe, expect, it } from "vitest";
import { uuidV7 } from "./uuid-v7.js";

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("uuidV7", () => {
  it("has the version 7 and RFC variant bits", () => {
    for (let i = 0; i < 200; i++) expect(uuidV7()).toMatch(UUID_V7);
  });

  it("starts with the milliseconds, so ids of later times sort after earlier ones", () => {
    const at = Date.UTC(2026, 10, 25, 12, 0, 0, 123);
    const id = uuidV7(at);
    expect(Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBe(at);
    const ids = [at + 5, at, at + 1_000_000].map((t) => uuidV7(t));
    expect([...ids].sort()).toEqual([ids[1], ids[0], ids[2]]);
  });

  it("differs between two calls in the same millisecond", () => {
    const at = Date.now();
    const ids = new Set(Array.from({ length: 1000 }, () => uuidV7(at)));
    expect(ids.size).toBe(1000);
  });

  it("draws every random digit evenly, across many refills of its random pool", () => {
    const at = Date.UTC(2026, 10, 27);
    const ids = Array.from({ length: 20_000 }, () => uuidV7(at));
    expect(new Set(ids).size).toBe(ids.length);
    const random = [15, 16, 17, 20, 21, 22, ...Array.from({ length: 12 }, (_, i) => 24 + i)];
    for (const position of random) {
      const counts = new Map<string, number>();
      for (const id of ids) counts.set(id[position] as string, (counts.get(id[position] as string) ?? 0) + 1);
      // 16 digits, 1,250 each on average: far from it would mean bits are lost or repeated.
      expect([position, counts.size]).toEqual([position, 16]);
      expect(Math.min(...counts.values())).toBeGreaterThan(1_000);
      expect(Math.max(...counts.values())).toBeLessThan(1_500);
    }
    const variants = new Map<string, number>();
    for (const id of ids) variants.set(id[19] as string, (variants.get(id[19] as string) ?? 0) + 1);
    expect([...variants.keys()].sort()).toEqual(["8", "9", "a", "b"]);
    expect(Math.min(...variants.values())).toBeGreaterThan(4_500);
    // The time part is the same for all of them, and the version digit too.
    expect(new Set(ids.map((id) => id.slice(0, 15))).size).toBe(1);
  });
});
