import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { whereOf } from "../../metadata/where-filter.js";
import { tempDir } from "../test-support/temp-memory.js";
import { type Ran, recording } from "./test-support/recording-statements.js";
import { sparseSet } from "./test-support/vector-sets.js";
import { openIndex, openSetMemory, textOf } from "./test-support/vector-store.js";

describe("a vector search narrowed to a few rows", () => {
  it("reads the candidates by rid, never by walking the namespace's index", async () => {
    const set = sparseSet(3000, 64, 3, 11);
    const path = join(tempDir(), "brain.db");
    const memory = openSetMemory(path, set);
    await memory.import(
      set.vectors.map((_, i) => ({
        key: `k${i}`,
        content: textOf(i),
        metadata: { tier: i % 50 === 7 ? "gold" : "std", few: i % 500 === 3 },
      })),
    );
    await memory.flush();
    const ran: Ran = [];
    // A pool of 20 candidates: the 60 gold entries are searched by their codes, the 6 "few" exactly.
    const { index, db, indexOf } = openIndex(path, {
      minCandidates: 20,
      statements: (statements) => recording(statements, ran),
    });
    const query = set.queries[0] as Float32Array;
    const gold = index.search(query, 10, { namespace: "default", where: whereOf({ tier: "gold" }) });
    const few = index.search(query, 10, { namespace: "default", where: whereOf({ few: true }) });
    expect(gold).toHaveLength(10);
    // Of the 6 "few" entries, those sharing a word with the query (sparse vectors: cosine 0 is no hit).
    expect(few.length).toBeGreaterThan(0);
    expect(few.every((hit) => indexOf(hit.rid) % 500 === 3)).toBe(true);
    expect(ran.length).toBeGreaterThanOrEqual(2);
    for (const { statement, args } of ran) {
      const plan = db
        .prepare(`EXPLAIN QUERY PLAN ${statement.source}`)
        .all(...args)
        .map((row) => (row as { detail: string }).detail);
      expect(plan).toContain("SEARCH m USING INTEGER PRIMARY KEY (rowid=?)");
      expect(plan.join("\n")).not.toContain("memories_namespace");
    }
  });
});
