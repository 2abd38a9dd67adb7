import { describe, expect, it } from "vitest";
import { pgvectorAtLeast, vectorSearchFor } from "./vector-index.js";

const pgvector = (version: string) => ({ schema: "public", version });

describe("vectorSearchFor", () => {
  it("indexes up to 2,000 dimensions as vector", () => {
    const { search, unindexed } = vectorSearchFor(pgvector("0.5.1"), 1536);
    expect(search).toEqual({
      kind: "pgvector",
      dimensions: 1536,
      type: `"public".vector(1536)`,
      half: false,
      distance: `OPERATOR("public".<=>)`,
      index: { name: "claw_memories_hnsw_1536", opclass: `"public".vector_cosine_ops` },
    });
    expect(unindexed).toBeUndefined();
  });

  it("indexes 2,001 to 4,000 dimensions as halfvec from pgvector 0.7", () => {
    for (const dimensions of [2001, 3072, 4000]) {
      const { search, unindexed } = vectorSearchFor(pgvector("0.8.0"), dimensions);
      expect(search).toMatchObject({
        kind: "pgvector",
        type: `"public".halfvec(${dimensions})`,
        half: true,
        index: { name: `claw_memories_hnsw_half_${dimensions}`, opclass: `"public".halfvec_cosine_ops` },
      });
      expect(unindexed).toBeUndefined();
    }
  });

  it("scans exactly, and says why, past what the installed pgvector can index", () => {
    const old = vectorSearchFor(pgvector("0.6.2"), 3072);
    expect(old.search).toMatchObject({
      kind: "pgvector",
      type: `"public".vector(3072)`,
      half: false,
      index: null,
    });
    expect(old.unindexed).toBe(
      "no HNSW index for 3072-dimensional vectors: pgvector 0.6.2 indexes at most 2000 dimensions (0.7 and later: 4000, as halfvec), so vector recall scans every vector exactly",
    );
    const wide = vectorSearchFor(pgvector("0.8.1"), 8192);
    expect(wide.search).toMatchObject({
      kind: "pgvector",
      type: `"public".vector(8192)`,
      half: false,
      index: null,
    });
    expect(wide.unindexed).toBe(
      "no HNSW index for 8192-dimensional vectors: pgvector indexes at most 4000 dimensions (as halfvec), so vector recall scans every vector exactly",
    );
  });

  it("compares in JavaScript without pgvector or past its 16,000 dimensions", () => {
    expect(vectorSearchFor({ schema: null }, 384).search).toEqual({ kind: "js", dimensions: 384 });
    expect(vectorSearchFor(pgvector("0.8.0"), 16_001).search).toEqual({ kind: "js", dimensions: 16_001 });
  });

  it("reads pgvector versions", () => {
    expect(pgvectorAtLeast("0.7.0", 0, 7)).toBe(true);
    expect(pgvectorAtLeast("0.10.1", 0, 7)).toBe(true);
    expect(pgvectorAtLeast("1.0", 0, 7)).toBe(true);
    expect(pgvectorAtLeast("0.6.2", 0, 7)).toBe(false);
    expect(pgvectorAtLeast("", 0, 7)).toBe(false);
  });
});
