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
});
