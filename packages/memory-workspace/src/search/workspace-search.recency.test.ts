import { describe, expect, it } from "vitest";
import { day, openIndex, openMemory, tempDir, writeFiles } from "../test-support/temp-workspace.js";

const QUERY = "staging deploy blue green canary";

async function searchPaths(): Promise<string[]> {
  const dir = tempDir();
  writeFiles(dir, {
    "MEMORY.md": "# Notes\n\n- Deploy checklist: run the migrations first.\n",
    [`memory/${day(-23)}.md`]:
      "# Standup\n\nDecided: the staging deploy uses a blue green rollout with canary checks.\n",
  });
  const memory = await openMemory(dir);
  const index = openIndex(memory, dir);
  await index.sync();
  return (await index.search(QUERY, { mode: "bm25" })).map((hit) => hit.path ?? hit.key);
}

describe("search ranks by relevance first, recency second", () => {
  it("a 23-day-old daily note with every term ranks above a one-term MEMORY.md line", async () => {
    expect(await searchPaths()).toEqual([`memory/${day(-23)}.md`, "MEMORY.md"]);
  });
});
