import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../test-support/temp-memory.js";
import { anisotropicSet, dot, recallAtK, sparseSet, type VectorSet } from "./test-support/vector-sets.js";
import { openIndex, openSetMemory, storeVectors } from "./test-support/vector-store.js";

const SIZE = 4000;
const DIMENSIONS = 256;
const QUERIES = 40;
/** A tenth of the store, as 1000 candidates are of 10k vectors: raw sign bits found 0.5–0.8 here. */
const CANDIDATES = 400;

/** Mean recall@10 of the index's top 10 against the exact top 10, over the set's queries. */
async function measuredRecall(set: VectorSet, loadVectorExtension = true): Promise<number> {
  const path = join(tempDir(), "brain.db");
  await storeVectors(openSetMemory(path, set, loadVectorExtension), 0, set.vectors.length);
  const opened = openIndex(path, { minCandidates: CANDIDATES, loadVectorExtension });
  let sum = 0;
  for (const query of set.queries) {
    const hits = opened.index.search(query, 10, {});
    sum += recallAtK(
      set,
      query,
      hits.map((hit) => opened.indexOf(hit.rid)),
      10,
    );
  }
  return sum / set.queries.length;
}

describe("vector pre-filter recall", () => {
  it("finds the exact top 10 of sparse non-negative vectors (feature hashing)", async () => {
    const set = sparseSet(SIZE, DIMENSIONS, QUERIES, 5);
    expect(set.vectors.every((v) => v.every((x) => x >= 0))).toBe(true);
    expect(await measuredRecall(set)).toBeGreaterThanOrEqual(0.95);
  });

  it("finds the exact top 10 of sentence-embedding-like vectors (a shared offset)", async () => {
    const set = anisotropicSet(SIZE, DIMENSIONS, QUERIES, 7);
    // The fixture is what it claims: unrelated texts sit at cosine ≈ 0.6.
    let unrelated = 0;
    for (let i = 0; i < 200; i++)
      unrelated += dot(set.vectors[i] as Float32Array, set.vectors[i + 1000] as Float32Array);
    expect(unrelated / 200).toBeGreaterThan(0.5);
    expect(unrelated / 200).toBeLessThan(0.7);
    expect(await measuredRecall(set)).toBeGreaterThanOrEqual(0.95);
  });

  it("does the same with the JavaScript re-rank (no sqlite-vec)", async () => {
    expect(await measuredRecall(sparseSet(SIZE, DIMENSIONS, QUERIES, 9), false)).toBeGreaterThanOrEqual(0.95);
  });
});
