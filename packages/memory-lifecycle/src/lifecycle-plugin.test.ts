import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Memory } from "@claw/memory-api";
import { type CreateMemoryOptions, createMemory } from "@claw/memory-core";
import { describe, expect, it, onTestFinished } from "vitest";
import { HYGIENE_STATE_FILE } from "./hygiene/hygiene-state.js";
import { lifecyclePlugin } from "./lifecycle-plugin.js";
import { SNAPSHOT_FILE } from "./snapshot/snapshot-format.js";
import { recordingLogger, tempWorkspace } from "./test-support/temp-workspace.js";

async function start(workspaceDir: string, options: Partial<CreateMemoryOptions> = {}): Promise<Memory> {
  const memory = await createMemory({
    workspaceDir,
    embeddings: null,
    plugins: [lifecyclePlugin()],
    ...options,
  });
  onTestFinished(() => memory.close());
  return memory;
}

function deleteDatabase(workspaceDir: string): void {
  for (const f of readdirSync(workspaceDir).filter((f) => f.startsWith("brain.db")))
    rmSync(join(workspaceDir, f));
}

/** A workspace whose snapshot holds two core memories and whose brain.db is gone. */
async function lostDatabase(): Promise<{ workspaceDir: string; snapshot: Buffer }> {
  const workspaceDir = tempWorkspace();
  const memory = await createMemory({
    workspaceDir,
    embeddings: null,
    config: { snapshotEnabled: true },
    plugins: [lifecyclePlugin()],
  });
  await memory.store("editor", "The user edits code in Helix");
  await memory.store("tz", "The user lives in UTC+1", { importance: 0.8 });
  await memory.close(); // the plugin exports the snapshot before close
  deleteDatabase(workspaceDir);
  return { workspaceDir, snapshot: readFileSync(join(workspaceDir, SNAPSHOT_FILE)) };
}

describe("lifecyclePlugin", () => {
  it("hydrates a missing database before any snapshot export can overwrite the snapshot", async () => {
    const { workspaceDir, snapshot } = await lostDatabase();
    const logger = recordingLogger();
    const memory = await start(workspaceDir, { config: { snapshotEnabled: true }, logger });

    expect((await memory.recall("Helix")).map((e) => e.key)).toEqual(["editor"]);
    expect(await memory.count()).toBe(2);
    const steps = logger.lines.filter((l) => /^debug: lifecycle: \w+ done$/.test(l));
    expect(steps).toEqual([
      "debug: lifecycle: hydrate done",
      "debug: lifecycle: hygiene done",
      "debug: lifecycle: snapshot done",
    ]);
    expect(logger.lines).toContain("info: lifecycle: hydrated 2 memories from MEMORY_SNAPSHOT.md");
    expect(readFileSync(join(workspaceDir, SNAPSHOT_FILE)).equals(snapshot)).toBe(true);
  });

  it("does not hydrate a database that is already in use", async () => {
    const { workspaceDir } = await lostDatabase();
    const first = await start(workspaceDir);
    await first.forget("editor");
    await first.store("padding", "x".repeat(8000)); // well past 4 KB
    await first.close();
    expect(statSync(join(workspaceDir, "brain.db")).size).toBeGreaterThanOrEqual(4096);

    const second = await start(workspaceDir);
    expect(await second.get("editor")).toBeNull();
  });

  it("follows auto_hydrate = false", async () => {
    const { workspaceDir } = await lostDatabase();
    const memory = await start(workspaceDir, { config: { autoHydrate: false } });
    expect(await memory.count()).toBe(0);
  });

  it("runs hygiene at start-up when due and records it", async () => {
    const workspaceDir = tempWorkspace();
    const seed = await createMemory({ workspaceDir, embeddings: null });
    await seed.import([
      { key: "old", content: "old chat", category: "conversation", updatedAt: "2020-01-01T00:00:00Z" },
    ]);
    await seed.close();

    const memory = await start(workspaceDir);
    expect(await memory.count()).toBe(0);
    const state = JSON.parse(readFileSync(join(workspaceDir, HYGIENE_STATE_FILE), "utf8"));
    expect(state.lastReport.deletedKeys).toEqual(["default/old"]);
  });

  it("follows hygiene_enabled = false", async () => {
    const workspaceDir = tempWorkspace();
    const seed = await createMemory({ workspaceDir, embeddings: null });
    await seed.import([
      { key: "old", content: "old chat", category: "conversation", updatedAt: "2020-01-01T00:00:00Z" },
    ]);
    await seed.close();

    const memory = await start(workspaceDir, { config: { hygieneEnabled: false } });
    expect(await memory.count()).toBe(1);
  });

  it("exports the snapshot before close only when snapshot_enabled", async () => {
    const off = tempWorkspace();
    const a = await start(off);
    await a.store("k", "core fact");
    await a.close();
    expect(readdirSync(off)).not.toContain(SNAPSHOT_FILE);

    const on = tempWorkspace();
    const b = await start(on, { config: { snapshotEnabled: true } });
    await b.store("k", "core fact");
    await b.close();
    expect(readFileSync(join(on, SNAPSHOT_FILE), "utf8")).toContain("core fact");
  });

  it("logs a failing step and still opens the memory", async () => {
    const workspaceDir = tempWorkspace();
    mkdirSync(join(workspaceDir, SNAPSHOT_FILE)); // a folder where the snapshot file should be
    const logger = recordingLogger();
    const memory = await start(workspaceDir, { logger, config: { snapshotEnabled: true } });
    await memory.store("k", "still works");
    expect((await memory.get("k"))?.content).toBe("still works");
    expect(logger.lines.filter((l) => l.startsWith("error: lifecycle:"))).toEqual([
      "error: lifecycle: hydrate failed",
    ]);
    await memory.close();
    expect(logger.lines.filter((l) => l.startsWith("error: lifecycle:"))).toEqual([
      "error: lifecycle: hydrate failed",
      "error: lifecycle: snapshot failed",
    ]);
  });
});

describe("lifecyclePlugin on other backends", () => {
  it("never treats a store that is not a local brain.db as lost", async () => {
    const { workspaceDir } = await lostDatabase();
    const plugin = lifecyclePlugin();
    const { DEFAULT_CONFIG } = await import("@claw/memory-core");
    const ctx = {
      workspaceDir,
      dbPath: join(workspaceDir, "brain.db"),
      config: {
        ...DEFAULT_CONFIG,
        memory: { ...DEFAULT_CONFIG.memory, backend: "none" as const, hygieneEnabled: false },
      },
      logger: recordingLogger(),
    };
    await plugin.beforeOpen?.(ctx); // brain.db is missing at this point
    const memory = await createMemory({ workspaceDir, embeddings: null });
    onTestFinished(() => memory.close());
    await plugin.afterOpen?.(memory, ctx);
    expect(await memory.count()).toBe(0); // not hydrated although brain.db was missing
  });
});
