import { describe, expect, it } from "vitest";
import { openWorkspaceMemory } from "../test-support/temp-workspace.js";
import { stableMemoryBlock } from "./stable-memory-block.js";

describe("stableMemoryBlock", () => {
  it("renders core memories sorted by key, without scores or times", async () => {
    const memory = await openWorkspaceMemory();
    await memory.store("tz", "The user lives in Lisbon", { importance: 0.9 });
    await memory.store("editor", "The user edits code in Helix", { importance: 0.7 });
    await memory.store("note", "a daily note", { category: "daily" });

    const block = await stableMemoryBlock(memory);
    expect(block.text).toBe(
      "## What you remember about the user\n- The user edits code in Helix\n- The user lives in Lisbon",
    );
    expect(block.hash).toMatch(/^[0-9a-f]{16}$/);
  });

  it("keeps the same text and hash across reads and re-rankings, and changes them with a core memory", async () => {
    const memory = await openWorkspaceMemory();
    await memory.store("tz", "The user lives in Lisbon", { importance: 0.9 });
    await memory.store("editor", "The user edits code in Helix", { importance: 0.7 });
    const first = await stableMemoryBlock(memory);
    await memory.store("standup", "Standup at 9:30", { category: "daily" });
    await memory.store("editor", "The user edits code in Helix", { importance: 0.95 }); // re-ranked only
    const again = await stableMemoryBlock(memory);
    expect(again.text).toBe(first.text);
    expect(again.hash).toBe(first.hash);

    await memory.store("editor", "The user edits code in Zed");
    const changed = await stableMemoryBlock(memory);
    expect(changed.hash).not.toBe(first.hash);
    expect(changed.text).toContain("Zed");
  });

  it("keeps the most important within the budget and leaves out superseded ones", async () => {
    const memory = await openWorkspaceMemory();
    await memory.store("big", `important ${"x".repeat(400)}`, { importance: 0.99 });
    await memory.store("small", "small fact", { importance: 0.5 });
    await memory.import([{ key: "old", content: "old fact", supersededBy: "small" }]);
    const block = await stableMemoryBlock(memory, { maxTokens: 50 });
    expect(block.entries.map((e) => e.key)).toEqual(["small"]);
  });

  it("is empty when stable_memory_in_system_prompt is off", async () => {
    const memory = await openWorkspaceMemory({ config: { stableMemoryInSystemPrompt: false } });
    await memory.store("tz", "The user lives in Lisbon");
    expect((await stableMemoryBlock(memory)).text).toBe("");
  });
});
