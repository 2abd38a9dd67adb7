import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../test-support/temp-memory.js";
import { type Ran, recording } from "./test-support/recording-statements.js";
import { anisotropicSet, recallAtK, type VectorSet } from "./test-support/vector-sets.js";
import { type OpenedIndex, openIndex, openSetMemory, textOf } from "./test-support/vector-store.js";

/** The set stored with vector i in namespace `namespaceOf(i)`, and an index recording its statements. */
async function stored(
  set: VectorSet,
  namespaceOf: (i: number) => string,
  minCandidates?: number,
): Promise<{ opened: OpenedIndex; ran: Ran }> {
  const path = join(tempDir(), "brain.db");
  const memory = openSetMemory(path, set);
  await memory.import(
    set.vectors.map((_, i) => ({ key: `k${i}`, content: textOf(i), namespace: namespaceOf(i) })),
  );
  await memory.flush();
  const ran: Ran = [];
  return { opened: openIndex(path, { minCandidates, statements: (s) => recording(s, ran) }), ran };
}

const usedCodes = (ran: Ran) => ran.map(({ statement }) => statement.source.includes("json_each"));

describe("a vector search whose candidate pool would hold every vector it can see", () => {
  it("ranks them all exactly in one statement, without the codes' candidates", async () => {
    // The default pool is 1000 candidates: more than the store's 600 vectors.
    const set = anisotropicSet(600, 64, 8, 21);
    const { opened, ran } = await stored(set, () => "default");
    for (const query of set.queries) {
      const hits = opened.index.search(query, 10, { namespace: "default" });
      const found = hits.map((hit) => opened.indexOf(hit.rid));
      expect(recallAtK(set, query, found, 10)).toBe(1);
    }
    expect(usedCodes(ran)).toEqual(set.queries.map(() => false));
  });

  it("passes through the codes once the store outgrows the pool", async () => {
    const set = anisotropicSet(600, 64, 8, 21);
    const { opened, ran } = await stored(set, () => "default", 100);
    for (const query of set.queries)
      expect(opened.index.search(query, 10, { namespace: "default" })).toHaveLength(10);
    expect(usedCodes(ran)).toEqual(set.queries.map(() => true));
  });

  it("counts the vectors of the namespace searched, not of the store", async () => {
    // 1,200 vectors in "big" (more than the pool), 300 in "small".
    const set = anisotropicSet(1500, 64, 2, 23);
    const { opened, ran } = await stored(set, (i) => (i < 1200 ? "big" : "small"));
    const query = set.queries[0] as Float32Array;
    const small = opened.index.search(query, 10, { namespace: "small" });
    const big = opened.index.search(query, 10, { namespace: "big" });
    const everywhere = opened.index.search(query, 10, {});
    expect(small.map((hit) => opened.indexOf(hit.rid) >= 1200)).toEqual(Array(10).fill(true));
    expect(big.map((hit) => opened.indexOf(hit.rid) < 1200)).toEqual(Array(10).fill(true));
    expect(everywhere).toHaveLength(10);
    expect(usedCodes(ran)).toEqual([false, true, true]);
  });
});
