import { describe, expect, it } from "vitest";
import { openWorkspaceMemory } from "../test-support/temp-workspace.js";
import { autoSaveTurn } from "./auto-save-turn.js";
import { memoryFlushCheck } from "./memory-flush-check.js";

describe("autoSaveTurn", () => {
  it("consolidates the turn when auto_save is on", async () => {
    const memory = await openWorkspaceMemory();
    const result = await autoSaveTurn(memory, { user: "Rule: never deploy on Fridays" });
    expect(result?.daily?.category).toBe("daily");
    expect(result?.core?.content).toBe("Rule: never deploy on Fridays");
  });

  it("does nothing when auto_save is off", async () => {
    const memory = await openWorkspaceMemory({ config: { autoSave: false } });
    expect(await autoSaveTurn(memory, { user: "Rule: never deploy on Fridays" })).toBeNull();
    expect(await memory.count()).toBe(0);
  });
});

describe("memoryFlushCheck", () => {
  const window = { contextWindow: 128_000 };

  it("fires past contextWindow − reserveTokensFloor − softThresholdTokens (defaults 20 000 and 4 000)", () => {
    expect(memoryFlushCheck({ ...window, contextTokens: 104_000 })).toMatchObject({
      flush: false,
      threshold: 104_000,
    });
    const due = memoryFlushCheck({ ...window, contextTokens: 104_001 });
    expect(due.flush).toBe(true);
    expect(due.systemPrompt).toBe("Session nearing compaction. Store durable memories now.");
    expect(due.prompt).toContain("NO_REPLY");
  });

  it("honours custom floors", () => {
    expect(
      memoryFlushCheck({
        ...window,
        contextTokens: 90_000,
        reserveTokensFloor: 30_000,
        softThresholdTokens: 10_000,
      }).flush,
    ).toBe(true);
  });

  it("flushes once per compaction cycle", () => {
    const state = { ...window, contextTokens: 120_000, compactionCount: 2 };
    expect(memoryFlushCheck({ ...state, lastFlushCompactionCount: 2 }).flush).toBe(false);
    expect(memoryFlushCheck({ ...state, lastFlushCompactionCount: 1 }).flush).toBe(true);
    expect(memoryFlushCheck(state).flush).toBe(true);
  });

  it("rejects a negative or non-numeric field, naming it", () => {
    expect(() => memoryFlushCheck({ contextWindow: 1000, contextTokens: -1 })).toThrow(
      expect.objectContaining({ code: "INVALID_INPUT", field: "contextTokens" }),
    );
  });
});
