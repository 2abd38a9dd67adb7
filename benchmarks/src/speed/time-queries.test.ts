import { describe, expect, it } from "vitest";
import type { CorpusQuery } from "./corpus.js";
import { timeEnginesInBlocks } from "./time-queries.js";

const query = (i: number) => ({ text: `q${i}` }) as unknown as CorpusQuery;

describe("timeEnginesInBlocks", () => {
  it("warms every engine, then alternates blocks with a rotating first turn; results in query order", async () => {
    const calls: string[] = [];
    const engine = (name: string) => (q: CorpusQuery) => {
      calls.push(`${name}:${q.text}`);
      return `${name}-${q.text}`;
    };
    const queries = [1, 2, 3, 4, 5].map(query);
    const [a, b] = await timeEnginesInBlocks([query(0)], queries, [engine("a"), engine("b")], 2);

    expect(calls).toEqual([
      "a:q0",
      "b:q0",
      // Block 1 (q1–q3): a first; block 2 (q4, q5): b first.
      "a:q1",
      "a:q2",
      "a:q3",
      "b:q1",
      "b:q2",
      "b:q3",
      "b:q4",
      "b:q5",
      "a:q4",
      "a:q5",
    ]);
    expect(a?.results).toEqual(["a-q1", "a-q2", "a-q3", "a-q4", "a-q5"]);
    expect(b?.results).toEqual(["b-q1", "b-q2", "b-q3", "b-q4", "b-q5"]);
    expect(a?.times).toHaveLength(5);
    expect(a?.times.every((t) => t >= 0)).toBe(true);
  });
});
