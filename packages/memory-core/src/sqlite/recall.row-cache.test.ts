// Recall keeps the rows it read (row-cache.ts): what it returns must still follow every write, by
// this store or another one on the same file, and every filter, with nothing written between.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openTestMemory, tempDir } from "./test-support/temp-memory.js";

/** Two stores on one file, without the hot cache of whole results (so only rows are kept). */
function twoStores(now?: () => Date) {
  const path = join(tempDir(), "brain.db");
  const settings = { hotCacheSize: 0 };
  return [openTestMemory({ path, settings, now }), openTestMemory({ path, settings, now })] as const;
}

const recalled = async (memory: ReturnType<typeof openTestMemory>, query: string, options = {}) =>
  (await memory.recall(query, { mode: "bm25", ...options })).map((e) => `${e.key}: ${e.content}`);

/** 30 notes "k<i>", recalled once through `reader` (which keeps note 7's row). */
async function notesRecalled(writer: ReturnType<typeof openTestMemory>, reader = writer) {
  for (let i = 0; i < 30; i++) await writer.store(`k${i}`, `garden note ${i} about tomatoes`);
  expect(await recalled(reader, "tomatoes note 7", { limit: 1 })).toEqual([
    "k7: garden note 7 about tomatoes",
  ]);
}

describe("recall with rows kept between recalls", () => {
  it("returns what this store wrote since", async () => {
    const [memory] = twoStores();
    await notesRecalled(memory);
    await memory.store("k7", "garden note 7 about tomatoes, now watered daily");
    expect(await recalled(memory, "tomatoes note 7", { limit: 1 })).toEqual([
      "k7: garden note 7 about tomatoes, now watered daily",
    ]);
    await memory.store("k7", "garden note 7 about tomatoes, now watered daily", { category: "daily" });
    expect(await recalled(memory, "tomatoes note 7", { limit: 1, categories: ["core"] })).not.toContain(
      "k7: garden note 7 about tomatoes, now watered daily",
    );
    await memory.forget("k7");
    expect((await recalled(memory, "tomatoes note 7")).some((line) => line.startsWith("k7:"))).toBe(false);
  });

  it("returns what another store on the file committed since", async () => {
    const [reader, writer] = twoStores();
    await notesRecalled(writer, reader);
    await writer.store("k7", "garden note 7 about tomatoes, moved to the greenhouse");
    expect(await recalled(reader, "tomatoes note 7", { limit: 1 })).toEqual([
      "k7: garden note 7 about tomatoes, moved to the greenhouse",
    ]);
    const newer = await writer.store("k8", "garden note 8 about tomatoes, replacing note 7");
    await writer.import([
      { key: "k7", content: "garden note 7 about tomatoes, moved to the greenhouse", supersededBy: newer.id },
    ]);
    expect((await recalled(reader, "tomatoes note 7")).some((line) => line.startsWith("k7:"))).toBe(false);
    await writer.forget("k8");
    expect((await recalled(reader, "tomatoes note 8")).some((line) => line.startsWith("k8:"))).toBe(false);
  });

  it("applies each recall's own filter and clock to the rows it kept", async () => {
    let now = new Date("2026-03-01T00:00:00Z");
    const [memory] = twoStores(() => now);
    await memory.store("soon", "tomatoes to pick before friday", { ttl: "1h" });
    await memory.store("team", "tomatoes ordered for the office", { namespace: "team" });
    await memory.store("kept", "tomatoes in the cellar", { sessionId: "s1" });
    expect((await recalled(memory, "tomatoes")).sort()).toEqual([
      "kept: tomatoes in the cellar",
      "soon: tomatoes to pick before friday",
    ]);
    expect(await recalled(memory, "tomatoes", { namespace: "team" })).toEqual([
      "team: tomatoes ordered for the office",
    ]);
    expect(await recalled(memory, "tomatoes", { sessionId: "s1" })).toEqual(["kept: tomatoes in the cellar"]);
    // Nothing is written: the entry with a time to live expires on the clock alone.
    now = new Date("2026-03-01T02:00:00Z");
    expect(await recalled(memory, "tomatoes")).toEqual(["kept: tomatoes in the cellar"]);
  });
});
