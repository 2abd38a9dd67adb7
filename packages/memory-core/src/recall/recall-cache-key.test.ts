import { describe, expect, it } from "vitest";
import { recallCacheKey } from "./hot-cache.js";

describe("recallCacheKey", () => {
  const since = new Date("2024-05-01T10:00:00.000Z");

  it("is independent of property order", () => {
    const a = recallCacheKey({ query: "q", limit: 5, namespace: "ns", mode: "hybrid", minScore: 0.2 });
    const b = recallCacheKey({ minScore: 0.2, mode: "hybrid", namespace: "ns", limit: 5, query: "q" });
    expect(a).toBe(b);
  });

  it("produces the exact canonical JSON with sorted keys, sorted categories and ISO dates", () => {
    expect(
      recallCacheKey({
        query: "deploy",
        since,
        categories: ["preference", "decision", "fact"],
        limit: 3,
        includeSuperseded: false,
      }),
    ).toBe(
      '{"categories":["decision","fact","preference"],"includeSuperseded":false,"limit":3,' +
        '"query":"deploy","since":"2024-05-01T10:00:00.000Z"}',
    );
  });

  it("treats categories as a set but keeps other arrays in order", () => {
    expect(recallCacheKey({ categories: ["b", "a"] })).toBe(recallCacheKey({ categories: ["a", "b"] }));
    expect(recallCacheKey({ other: ["b", "a"] })).not.toBe(recallCacheKey({ other: ["a", "b"] }));
  });

  it("maps a Date and its ISO string to the same key", () => {
    expect(recallCacheKey({ since })).toBe(recallCacheKey({ since: since.toISOString() }));
  });

  it("drops undefined properties so omitted and explicit undefined match", () => {
    expect(recallCacheKey({ query: "q", session: undefined })).toBe(recallCacheKey({ query: "q" }));
  });

  it("distinguishes every parameter that changes the result", () => {
    const base = {
      query: "q",
      limit: 5,
      namespace: "ns",
      session: "s1",
      since,
      until: new Date("2024-06-01T00:00:00.000Z"),
      categories: ["fact"],
      mode: "hybrid",
      minScore: 0.1,
      includeSuperseded: false,
      withEmbeddings: false,
    };
    const variants: Record<string, unknown>[] = [
      { ...base, query: "Q" },
      { ...base, limit: 6 },
      { ...base, namespace: "other" },
      { ...base, session: "s2" },
      { ...base, since: new Date("2024-05-01T10:00:00.001Z") },
      { ...base, until: undefined },
      { ...base, categories: ["fact", "decision"] },
      { ...base, mode: "keyword" },
      { ...base, minScore: 0.2 },
      { ...base, includeSuperseded: true },
      { ...base, withEmbeddings: true },
      { ...base, limit: "5" },
      { ...base, session: null },
    ];
    const keys = new Set([recallCacheKey(base), ...variants.map((v) => recallCacheKey(v))]);
    expect(keys.size).toBe(variants.length + 1);
  });

  it("sorts keys of nested objects too", () => {
    expect(recallCacheKey({ filter: { b: 1, a: 2 } })).toBe('{"filter":{"a":2,"b":1}}');
  });

  it("does not throw on an invalid Date", () => {
    expect(recallCacheKey({ since: new Date(Number.NaN) })).toBe('{"since":"Invalid Date"}');
  });
});
