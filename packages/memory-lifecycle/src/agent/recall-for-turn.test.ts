import { describe, expect, it } from "vitest";
import { consolidateTurn } from "../consolidation/consolidate-turn.js";
import { openWorkspaceMemory } from "../test-support/temp-workspace.js";
import { recallForTurn } from "./recall-for-turn.js";

describe("recallForTurn", () => {
  it("renders the most relevant memories as one [memory context] block", async () => {
    const memory = await openWorkspaceMemory();
    await memory.store("tz", "The user lives in Lisbon");
    await memory.store("pet", "The user has a cat named Miso");
    await memory.store("standup", "Standup moved to 9:30", { category: "daily" });

    const { text, entries } = await recallForTurn(memory, "what is my cat called?");
    expect(entries.map((e) => e.key)).toEqual(["pet"]);
    expect(text).toBe("[memory context]\n- (core) The user has a cat named Miso");
  });

  it("labels non-core memories with their date", async () => {
    const memory = await openWorkspaceMemory();
    await memory.import([
      { key: "s", content: "Standup moved to 9:30", category: "daily", updatedAt: "2026-11-20T08:00:00Z" },
    ]);
    const { text } = await recallForTurn(memory, "standup time");
    expect(text).toBe("[memory context]\n- (daily 2026-11-20) Standup moved to 9:30");
  });

  it("keeps auto_recall_limit entries, drops near-duplicates and excluded keys", async () => {
    const memory = await openWorkspaceMemory({ config: { autoRecallLimit: 2 } });
    await memory.store("a", "The user drinks green tea every morning");
    await memory.store("b", "The user drinks green tea every morning.");
    await memory.store("c", "The user drinks coffee after lunch");
    await memory.store("d", "The user drinks water at night");

    const { entries } = await recallForTurn(memory, "what does the user drink");
    expect(entries.length).toBe(2);
    const keys = entries.map((e) => e.key);
    expect(keys.includes("a") && keys.includes("b")).toBe(false);

    const without = await recallForTurn(memory, "what does the user drink", { exclude: keys, limit: 5 });
    expect(without.entries.some((e) => keys.includes(e.key))).toBe(false);
  });

  it("stays within the token budget", async () => {
    const memory = await openWorkspaceMemory();
    for (let i = 0; i < 10; i++)
      await memory.store(`k${i}`, `project alpha note ${i} ${"detail ".repeat(40)}`);
    const { text, entries } = await recallForTurn(memory, "project alpha", { maxTokens: 200, limit: 10 });
    expect(Math.ceil(text.length / 4)).toBeLessThanOrEqual(200 + entries.length);
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.length).toBeLessThan(10);
  });

  it("is empty when auto_recall is off", async () => {
    const memory = await openWorkspaceMemory({ config: { autoRecall: false } });
    await memory.store("pet", "The user has a cat named Miso");
    expect(await recallForTurn(memory, "cat")).toEqual({ text: "", entries: [] });
  });

  it("its output is never saved back by the autosave path", async () => {
    const memory = await openWorkspaceMemory();
    await memory.store("pet", "Important: the user has a cat named Miso");
    const { text } = await recallForTurn(memory, "cat");
    const result = await consolidateTurn(memory, { user: `${text}\nwhat is my cat called?` });
    expect(result.skipped).toBeDefined();
    expect(await memory.count()).toBe(1);
  });
});
