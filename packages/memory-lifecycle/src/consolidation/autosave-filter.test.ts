import { describe, expect, it } from "vitest";
import { shouldSkipAutosave } from "./autosave-filter.js";

describe("shouldSkipAutosave", () => {
  it.each([
    ["", true],
    ["   \n\t", true],
    ["[cron: nightly] summarise the inbox", true],
    ["[heartbeat] ok", true],
    ["[HEARTBEAT] ok", true],
    ["[distilled_2026-11-20] three facts", true],
    ["[memory context]\n- the user likes tea", true],
    ["please answer this\n  [memory context]\n- recalled", true],
    ["I moved to Berlin last month", false],
    ["the word heartbeat in a sentence [heartbeat", false],
    ["a note about [cron jobs]", false],
  ])("%j → %s", (content, skip) => {
    expect(shouldSkipAutosave(content)).toBe(skip);
  });
});
