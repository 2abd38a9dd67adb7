import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Memory, MemoryEntry } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { openWorkspaceMemory, tempWorkspace } from "../test-support/temp-workspace.js";
import { HYGIENE_STATE_FILE } from "./hygiene-state.js";
import { runHygiene } from "./run-hygiene.js";

const NOW = new Date("2026-11-21T12:00:00.000Z");
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 86_400_000).toISOString();

function entry(key: string, category: string, ageDays: number, extra: Partial<MemoryEntry> = {}) {
  return { key, content: `${category} note ${key}`, category, updatedAt: daysAgo(ageDays), ...extra };
}

async function keys(memory: Memory): Promise<string[]> {
  return (await memory.export()).map((e) => `${e.namespace}/${e.key}`).sort();
}

describe("runHygiene", () => {
  it("prunes expired Conversation and Daily entries, never Core or custom categories", async () => {
    const memory = await openWorkspaceMemory();
    await memory.import([
      entry("c-old", "conversation", 40),
      entry("c-new", "conversation", 5),
      entry("d-old", "daily", 31),
      entry("d-new", "daily", 29),
      entry("core-old", "core", 900),
      entry("custom-old", "project", 900),
    ]);
    const report = await runHygiene(memory, { now: NOW });
    expect(report.ran).toBe(true);
    expect(report.pruned).toEqual({ conversation: 1, daily: 1 });
    expect(report.deletedKeys.sort()).toEqual(["default/c-old", "default/d-old"]);
    expect(await keys(memory)).toEqual([
      "default/c-new",
      "default/core-old",
      "default/custom-old",
      "default/d-new",
    ]);
  });

  it("deletes entries whose expiresAt has passed, in any category, and says so in their history", async () => {
    const memory = await openWorkspaceMemory();
    // Expiry is measured on the memory's clock (the real one here), retention on `now`.
    const fromNow = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();
    await memory.import([
      entry("code", "core", 1, { expiresAt: fromNow(-1) }),
      entry("later", "core", 1, { expiresAt: fromNow(24) }),
      entry("c-old", "conversation", 40),
    ]);
    const report = await runHygiene(memory, { now: NOW });
    expect(report.expired).toBe(1);
    expect(report.deletedKeys).toEqual(["default/c-old"]);
    expect((await memory.history("code")).map((v) => [v.action, v.actor, v.deleted])).toEqual([
      ["expire", "hygiene", true],
      ["create", "library", false],
    ]);
    expect((await memory.history("c-old")).map((v) => [v.action, v.actor, v.deleted])).toEqual([
      ["prune", "hygiene", true],
      ["create", "library", false],
    ]);
    expect((await memory.history("later"))[0]?.current).toBe(true);
  });

  it("keeps each category's floor of non-superseded entries, per namespace, deleting the oldest first", async () => {
    const memory = await openWorkspaceMemory({ config: { dailyRetentionFloor: 2 } });
    await memory.import([
      entry("d1", "daily", 90),
      entry("d2", "daily", 80),
      entry("d3", "daily", 70),
      entry("d4", "daily", 60),
      entry("t1", "daily", 90, { namespace: "tenant" }),
      entry("t2", "daily", 80, { namespace: "tenant" }),
    ]);
    const report = await runHygiene(memory, { now: NOW });
    expect(report.deletedKeys.sort()).toEqual(["default/d1", "default/d2"]);
    expect(report.keptByFloor).toBe(4);
    expect(await keys(memory)).toEqual(["default/d3", "default/d4", "tenant/t1", "tenant/t2"]);
  });

  it("counts only non-superseded entries toward the floor and prunes old superseded ones", async () => {
    const memory = await openWorkspaceMemory();
    await memory.import([
      entry("a", "conversation", 50),
      entry("b-superseded", "conversation", 50, { supersededBy: "a" }),
      entry("c-superseded-recent", "conversation", 1, { supersededBy: "a" }),
    ]);
    // A floor of 1: "a" is the one active entry and stays; the superseded ones do not count.
    const report = await runHygiene(memory, { now: NOW, conversationRetentionFloor: 1 });
    expect(report.deletedKeys).toEqual(["default/b-superseded"]);
    expect(report.prunedSuperseded).toBe(1);
    expect(await keys(memory)).toEqual(["default/a", "default/c-superseded-recent"]);
  });

  it("min_retention_floor applies to every category without its own floor", async () => {
    const memory = await openWorkspaceMemory();
    await memory.import([
      entry("c1", "conversation", 99),
      entry("c2", "conversation", 98),
      entry("d1", "daily", 99),
    ]);
    const report = await runHygiene(memory, { now: NOW, minRetentionFloor: 1, dailyRetentionFloor: 0 });
    expect(report.deletedKeys.sort()).toEqual(["default/c1", "default/d1"]);
  });

  it("runs at most every 12 hours, tracked in memory_hygiene_state.json", async () => {
    const workspaceDir = tempWorkspace();
    const memory = await openWorkspaceMemory({ workspaceDir });
    await memory.import([entry("c-old", "conversation", 40)]);

    const first = await runHygiene(memory, { now: NOW });
    expect(first.ran).toBe(true);
    const state = JSON.parse(readFileSync(join(workspaceDir, HYGIENE_STATE_FILE), "utf8"));
    expect(state.lastRunAt).toBe(NOW.toISOString());
    expect(state.lastReport.deletedKeys).toEqual(["default/c-old"]);

    await memory.import([entry("c-old-2", "conversation", 40)]);
    const soon = await runHygiene(memory, { now: new Date(NOW.getTime() + 11 * 3_600_000) });
    expect(soon.ran).toBe(false);
    expect(soon.previousRunAt).toBe(NOW.toISOString());
    expect(await memory.count()).toBe(1);

    const later = await runHygiene(memory, { now: new Date(NOW.getTime() + 12 * 3_600_000) });
    expect(later.ran).toBe(true);
    expect(await memory.count()).toBe(0);
    // Written by rename: no temp file is left behind.
    expect(readdirSync(workspaceDir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  it("force runs before the interval is over", async () => {
    const memory = await openWorkspaceMemory();
    await runHygiene(memory, { now: NOW });
    await memory.import([entry("c-old", "conversation", 40)]);
    const forced = await runHygiene(memory, { now: NOW, force: true });
    expect(forced.ran).toBe(true);
    expect(forced.deletedKeys).toEqual(["default/c-old"]);
  });

  it("prunes a custom category only when told how", async () => {
    const memory = await openWorkspaceMemory();
    await memory.import([entry("p-old", "project", 100), entry("p-new", "project", 1)]);
    const report = await runHygiene(memory, {
      now: NOW,
      customRetention: { project: { days: 30, floor: 0 } },
    });
    expect(report.pruned.project).toBe(1);
    expect(await keys(memory)).toEqual(["default/p-new"]);
  });

  it("refuses a retention rule for core and a negative floor, deleting nothing", async () => {
    const memory = await openWorkspaceMemory();
    await memory.import([entry("c-old", "conversation", 40)]);
    await expect(
      runHygiene(memory, { now: NOW, customRetention: { core: { days: 1, floor: 0 } } }),
    ).rejects.toMatchObject({ code: "INVALID_INPUT", field: "customRetention.core" });
    await expect(runHygiene(memory, { now: NOW, dailyRetentionFloor: -1 })).rejects.toMatchObject({
      code: "INVALID_INPUT",
    });
    expect(await memory.count()).toBe(1);
  });

  it("tracks the cadence in the workspace even for a NoneMemory", async () => {
    const workspaceDir = tempWorkspace();
    const memory = await openWorkspaceMemory({ workspaceDir, config: { backend: "none" } });
    const report = await runHygiene(memory, { now: NOW });
    expect(report.ran).toBe(true);
    expect(existsSync(join(workspaceDir, HYGIENE_STATE_FILE))).toBe(true);
  });
});
