import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../test-support/temp-memory.js";
import { type Ran, recording } from "./test-support/recording-statements.js";
import { anisotropicSet, recallAtK } from "./test-support/vector-sets.js";
import { openIndex, openSetMemory, storeVectors } from "./test-support/vector-store.js";

const SIZE = 600;

/** The statements reading embeddings that one search per query ran, and the searches' recall@10. */
async function searchAll(minCandidates?: number): Promise<{ ran: Ran; recall: number[]; queries: number }> {
  const set = anisotropicSet(SIZE, 64, 8, 21);
  const path = join(tempDir(), "brain.db");
  await storeVectors(openSetMemory(path, set), 0, SIZE);
  const ran: Ran = [];
  const opened = openIndex(path, { minCandidates, statements: (s) => recording(s, ran) });
  const recall = set.queries.map((query) => {
    const hits = opened.index.search(query, 10, { namespace: "default" });
    return recallAtK(
      set,
      query,
      hits.map((hit) => opened.indexOf(hit.rid)),
      10,
    );
  });
  return { ran, recall, queries: set.queries.length };
}

describe("a vector search whose candidate pool would hold the whole store", () => {
  it("ranks every vector exactly in one statement, without the codes' candidates", async () => {
    // The default pool is 1000 candidates: more than the store's 600 vectors.
    const { ran, recall, queries } = await searchAll();
    expect(recall.every((r) => r === 1)).toBe(true);
    expect(ran).toHaveLength(queries);
    expect(ran.some(({ statement }) => statement.source.includes("json_each"))).toBe(false);
  });

  it("passes through the codes once the store outgrows the pool", async () => {
    const { ran, queries } = await searchAll(100);
    expect(ran).toHaveLength(queries);
    expect(ran.every(({ statement }) => statement.source.includes("json_each"))).toBe(true);
  });
});
