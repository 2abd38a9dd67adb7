import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { CREATE_EMBEDDING_CACHE } from "../schema/schema.js";
import { createEmbeddingCache } from "./embedding-cache.js";

describe("embedding cache", () => {
  it("answers a batch of hashes at once and evicts the least recently accessed beyond its bound", () => {
    const db = new Database(":memory:");
    db.exec(CREATE_EMBEDDING_CACHE);
    let t = Date.parse("2026-01-01T00:00:00Z");
    const tick = () => {
      t += 1000;
      return new Date(t);
    };
    const cache = createEmbeddingCache(db, { maxEntries: 2, now: tick });
    const v = (x: number) => Float32Array.from([x, x]);
    cache.put("p", "m", [
      ["a", v(1)],
      ["b", v(2)],
    ]);
    const found = cache.get("p", "m", ["a", "b", "missing", "a"]);
    expect([...found.keys()].sort()).toEqual(["a", "b"]);
    expect(Array.from(found.get("b") ?? [])).toEqual([2, 2]);
    expect(cache.get("p", "other-model", ["a"]).size).toBe(0);
    cache.get("p", "m", ["a"]); // a is now the most recently used
    cache.put("p", "m", [["c", v(3)]]);
    expect(cache.size()).toBe(2);
    expect([...cache.get("p", "m", ["a", "b", "c"]).keys()].sort()).toEqual(["a", "c"]);
    db.close();
  });
});
