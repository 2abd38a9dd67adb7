import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { createMemory } from "@claw/memory-core";
import { describe, expect, it } from "vitest";
import { createWorkspaceIndex } from "../create-workspace-index.js";
import { countingMemory } from "../test-support/counting-memory.js";
import {
  DAYS,
  entriesIndexed,
  entriesTheFilesSay,
  writeFixtureWorkspace,
} from "../test-support/fixture-workspace.js";
import { openIndex, openMemory, tempDir } from "../test-support/temp-workspace.js";
import { STATE_DIR } from "./manifest.js";

describe("sync: the files are the source of truth", () => {
  it("rebuilds the same index after brain.db is deleted", async () => {
    const dir = tempDir();
    writeFixtureWorkspace(dir);
    const first = await createMemory({ workspaceDir: dir, embeddings: null });
    const firstIndex = createWorkspaceIndex(first, dir);
    await firstIndex.sync();
    const before = await entriesIndexed(first);
    await firstIndex.close();
    await first.close();
    for (const name of readdirSync(dir).filter((n) => n.startsWith("brain.db"))) rmSync(join(dir, name));

    const second = await openMemory(dir);
    const report = await openIndex(second, dir).sync();

    expect(report).toMatchObject({ reconciled: true, added: 6, files: 6, entriesWritten: 20 });
    expect(await entriesIndexed(second)).toEqual(before);
    expect(before).toEqual(entriesTheFilesSay(dir));
  });

  it("reconciles without a manifest: writes only what differs and removes orphans", async () => {
    const dir = tempDir();
    writeFixtureWorkspace(dir);
    const memory = countingMemory(await openMemory(dir));
    const index = openIndex(memory, dir);
    await index.sync();
    rmSync(join(dir, STATE_DIR), { recursive: true });
    rmSync(join(dir, `memory/${DAYS.old}.md`));
    memory.calls.length = 0;

    const report = await index.sync();

    expect(report).toMatchObject({
      reconciled: true,
      added: 0,
      updated: 0,
      removed: 1,
      unchanged: 5,
      files: 5,
    });
    expect(memory.calls).toEqual([
      {
        method: "forgetMany",
        keys: [],
        removed: [
          `file:memory/${DAYS.old}.md#0`,
          `file:memory/${DAYS.old}.md#1`,
          `fact:memory/${DAYS.old}.md#L6`,
          `fact:memory/${DAYS.old}.md#L7`,
        ],
      },
    ]);
    expect(await entriesIndexed(memory)).toEqual(entriesTheFilesSay(dir));
    // The manifest is back: the next sync trusts it again.
    expect((await index.sync()).reconciled).toBe(false);
  });

  it("repairs entries changed behind its back when asked for a full sync", async () => {
    const dir = tempDir();
    writeFixtureWorkspace(dir);
    const memory = countingMemory(await openMemory(dir));
    const index = openIndex(memory, dir);
    await index.sync();
    await memory.import([{ key: "file:MEMORY.md#1", content: "tampered", category: "core" }]);
    await memory.forget(`fact:memory/${DAYS.old}.md#L7`);
    memory.calls.length = 0;

    expect((await index.sync()).entriesWritten).toBe(0); // the manifest vouches for the files
    const report = await index.sync({ full: true });

    expect(report).toMatchObject({ reconciled: true, updated: 2, added: 0, entriesWritten: 2 });
    expect(memory.calls.map((c) => c.keys)).toEqual([
      ["file:MEMORY.md#1"],
      [`fact:memory/${DAYS.old}.md#L7`],
    ]);
    expect(await entriesIndexed(memory)).toEqual(entriesTheFilesSay(dir));
  });

  it("notices when an entry the manifest vouches for is gone, and reconciles", async () => {
    const dir = tempDir();
    writeFixtureWorkspace(dir);
    const memory = await openMemory(dir);
    const index = openIndex(memory, dir);
    await index.sync();
    await memory.forget("file:bank/world.md#0");

    const report = await index.sync();

    expect(report).toMatchObject({ reconciled: true, added: 1, entriesWritten: 1 });
    expect(await entriesIndexed(memory)).toEqual(entriesTheFilesSay(dir));
  });

  it("never touches entries it did not write, in the same namespace", async () => {
    const dir = tempDir();
    writeFixtureWorkspace(dir);
    const memory = await openMemory(dir);
    await memory.store("user_editor", "The user edits in Helix");
    const index = openIndex(memory, dir);
    await index.sync();
    rmSync(join(dir, "memory"), { recursive: true });
    await index.sync();
    await index.sync({ full: true });

    expect((await memory.get("user_editor"))?.content).toBe("The user edits in Helix");
    expect((await memory.export()).map((e) => e.key).sort()).toEqual([
      "file:MEMORY.md#0",
      "file:MEMORY.md#1",
      "file:MEMORY.md#2",
      "file:bank/world.md#0",
      "user_editor",
    ]);
  });

  it("keeps each namespace's index apart, with its own manifest", async () => {
    const dir = tempDir();
    writeFixtureWorkspace(dir);
    const memory = await openMemory(dir);
    await openIndex(memory, dir, { namespace: "agent-a" }).sync();
    const second = await openIndex(memory, dir, { namespace: "agent-b" }).sync();

    expect(second).toMatchObject({ added: 6, reconciled: true });
    expect(await memory.count({ namespace: "agent-a" })).toBe(20);
    expect(await memory.count({ namespace: "agent-b" })).toBe(20);
    expect(await memory.count({ namespace: "default" })).toBe(0);
    expect(readdirSync(join(dir, STATE_DIR)).filter((n) => n.endsWith(".json"))).toHaveLength(2);
  });
});
