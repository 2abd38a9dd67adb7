import { describe, expect, it } from "vitest";
import { mulberry32 } from "./random-rotation.js";
import { TopScores } from "./top-scores.js";

/** Offers every score above the floor, as the scans do, and returns the kept scores sorted. */
function keptScores(scores: readonly number[], capacity: number): { kept: number[]; floor: number } {
  const top = new TopScores(capacity);
  for (const [i, score] of scores.entries()) if (score > top.floor) top.offer(score, i);
  const kept = [...top.kept()].map((i) => scores[i] as number).sort((a, b) => a - b);
  return { kept, floor: top.floor };
}

describe("top scores", () => {
  it("keeps the highest scores whatever the order they come in", () => {
    const scores = [5, 1, 9, 3, 7, 7, 2, 8, 0, 6, 4, 7];
    expect(keptScores(scores, 4).kept).toEqual([7, 7, 8, 9]);
    expect(keptScores(scores, 0).kept).toEqual([]);
    expect(keptScores(scores, 20).kept).toEqual([...scores].sort((a, b) => a - b));
  });

  it("matches a sort on 300 generated streams (ties, rising and falling runs)", () => {
    const random = mulberry32(11);
    for (let round = 0; round < 300; round++) {
      const length = 1 + Math.floor(random() * 3000);
      const capacity = Math.floor(random() * 200);
      const levels = 1 + Math.floor(random() * (round % 3 === 0 ? 5 : 100_000));
      const shape = round % 4;
      const scores = Array.from({ length }, (_, i) => {
        const noise = Math.floor(random() * levels);
        return shape === 1 ? i + noise : shape === 2 ? -i + noise : noise;
      });
      const expected = [...scores].sort((a, b) => a - b).slice(Math.max(0, length - capacity));
      const { kept, floor } = keptScores(scores, capacity);
      expect(kept).toEqual(expected);
      // The floor never passes the least score kept: nothing that belonged was skipped.
      if (kept.length > 0) expect(floor).toBeLessThanOrEqual(kept[0] as number);
    }
  });
});
