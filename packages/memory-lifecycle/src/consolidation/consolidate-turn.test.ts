import { describe, expect, it } from "vitest";
import { openWorkspaceMemory } from "../test-support/temp-workspace.js";
import { consolidateTurn } from "./consolidate-turn.js";

const NOW = new Date("2026-11-21T10:00:00.000Z");

describe("consolidateTurn", () => {
  it("writes a Daily entry daily_{date}_{uuid} with the turn", async () => {
    const memory = await openWorkspaceMemory();
    const result = await consolidateTurn(
      memory,
      { user: "We moved the standup to 10:15", assistant: "Noted.", sessionId: "s1" },
      { now: NOW },
    );
    expect(result.daily?.key).toMatch(/^daily_2026-11-21_[0-9a-f-]{36}$/);
    expect(result.daily?.category).toBe("daily");
    expect(result.daily?.sessionId).toBe("s1");
    expect(result.daily?.content).toBe("We moved the standup to 10:15\n→ Noted.");
    expect(result.core).toBeNull();
    expect(await memory.count()).toBe(1);
  });

  it("truncates the Daily entry at a word boundary, by characters", async () => {
    const memory = await openWorkspaceMemory();
    const user = "Überlegung: wir könnten das Treffen auf nächste Woche verschieben, meinte Jörg";
    const result = await consolidateTurn(memory, { user }, { now: NOW, dailyMaxChars: 40 });
    expect(result.daily?.content).toBe("Überlegung: wir könnten das Treffen auf…");
    expect(Array.from(result.daily?.content ?? "").length).toBeLessThanOrEqual(40);
  });

  it("promotes a message of importance ≥ 0.8 and ≥ 10 characters to Core", async () => {
    const memory = await openWorkspaceMemory();
    const result = await consolidateTurn(
      memory,
      { user: "Important: always run the tests before pushing" },
      { now: NOW },
    );
    expect(result.core?.category).toBe("core");
    expect(result.core?.importance).toBeCloseTo(0.9, 9);
    expect(result.core?.content).toBe("Important: always run the tests before pushing");
    expect(result.core?.key).toMatch(/^core_[0-9a-f]{16}$/);
    expect(await memory.count({ category: "core" })).toBe(1);
  });

  it("does not promote ordinary or too short messages", async () => {
    const memory = await openWorkspaceMemory();
    expect(
      (await consolidateTurn(memory, { user: "I had pasta for lunch today" }, { now: NOW })).core,
    ).toBeNull();
    // importance 0.8 ("must") but only 4 characters
    expect((await consolidateTurn(memory, { user: "must" }, { now: NOW })).core).toBeNull();
    expect(await memory.count({ category: "core" })).toBe(0);
  });

  it("runs the conflict check before storing the promoted memory", async () => {
    const memory = await openWorkspaceMemory();
    const first = await consolidateTurn(
      memory,
      { user: "Rule: deploys always happen on Fridays" },
      { now: NOW },
    );
    const second = await consolidateTurn(
      memory,
      { user: "Rule: deploys never happen on Fridays" },
      { now: NOW },
    );
    expect(second.superseded).toEqual([first.core?.key]);
    const old = await memory.get(first.core?.key as string);
    expect(old?.supersededBy).toBe(second.core?.key);
    expect(old?.content.startsWith(`[SUPERSEDED by '${second.core?.key}'] `)).toBe(true);
  });

  it("telling the same rule twice updates one Core entry", async () => {
    const memory = await openWorkspaceMemory();
    await consolidateTurn(memory, { user: "Policy: never commit secrets" }, { now: NOW });
    const again = await consolidateTurn(memory, { user: "Policy: never commit secrets" }, { now: NOW });
    expect(again.superseded).toEqual([]);
    expect(await memory.count({ category: "core" })).toBe(1);
  });

  it("writes nothing for a message the autosave filter rejects", async () => {
    const memory = await openWorkspaceMemory();
    const result = await consolidateTurn(memory, {
      user: "[cron: hourly] Important: always check the queue",
    });
    expect(result).toMatchObject({ daily: null, core: null, superseded: [] });
    expect(result.skipped).toMatch(/autosave filter/);
    expect(await memory.count()).toBe(0);
  });

  it("keeps a recalled [memory context] reply out of the Daily entry", async () => {
    const memory = await openWorkspaceMemory();
    const result = await consolidateTurn(memory, {
      user: "What do I drink?",
      assistant: "[memory context]\n- the user likes tea",
    });
    expect(result.daily?.content).toBe("What do I drink?");
  });

  it("rejects a turn without a user message", async () => {
    const memory = await openWorkspaceMemory();
    await expect(consolidateTurn(memory, { user: 42 as unknown as string })).rejects.toMatchObject({
      code: "INVALID_INPUT",
      field: "turn.user",
    });
    expect(await memory.count()).toBe(0);
  });
});
