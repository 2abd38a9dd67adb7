import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { countingMemory } from "../test-support/counting-memory.js";
import { writeFixtureWorkspace } from "../test-support/fixture-workspace.js";
import { openIndex, openMemory, tempDir, writeFiles } from "../test-support/temp-workspace.js";
import type { SyncReport } from "../workspace-types.js";

async function setUp() {
  const dir = tempDir();
  writeFixtureWorkspace(dir);
  const memory = countingMemory(await openMemory(dir));
  const index = openIndex(memory, dir);
  await index.sync();
  return { dir, memory, index };
}

describe("watch", () => {
  it("turns a burst of edits into one sync, and the next edit into the next one", async () => {
    const { dir, index } = await setUp();
    const reports: SyncReport[] = [];
    const watcher = index.watch({ debounceMs: 200, onSync: (report) => reports.push(report) });
    const first = watcher.nextSync();
    for (let i = 1; i <= 5; i++)
      writeFiles(dir, { [`memory/2026-03-0${i}.md`]: `# Day ${i}\n\nnote ${i}\n` });
    writeFiles(dir, { "MEMORY.md": "# Memory\n\n- rewritten\n" });

    expect(await first).toMatchObject({ added: 5, updated: 1, removed: 0 });
    expect(watcher.syncs).toBe(1);

    // Had the burst caused a second sync, it would be the one reported here, with nothing added.
    const second = watcher.nextSync();
    writeFiles(dir, { "bank/people.md": "# People\n" });
    expect(await second).toMatchObject({ added: 1, updated: 0 });
    expect(watcher.syncs).toBe(2);
    expect(reports.map((r) => r.added)).toEqual([5, 1]);
    expect((await index.search("rewritten"))[0]?.path).toBe("MEMORY.md");
    await watcher.close();
  });

  it("sees files in folders created after it started, and deletions", async () => {
    const { dir, memory, index } = await setUp();
    const watcher = index.watch({ debounceMs: 100 });
    const created = watcher.nextSync();
    mkdirSync(join(dir, "memory/2026/03"), { recursive: true });
    writeFileSync(join(dir, "memory/2026/03/2026-03-09.md"), "# Deep\n\n## Retain\n- W @Eve lives deep\n");
    const report = await created;
    expect(report.added).toBe(1);
    expect((await memory.get("fact:memory/2026/03/2026-03-09.md#L4"))?.content).toBe("W @Eve lives deep");

    const edited = watcher.nextSync();
    writeFileSync(join(dir, "memory/2026/03/2026-03-09.md"), "# Deep\n\n## Retain\n- W @Eve moved up\n");
    expect(await edited).toMatchObject({ updated: 1 });
    expect((await memory.get("fact:memory/2026/03/2026-03-09.md#L4"))?.content).toBe("W @Eve moved up");
    await watcher.close();
  });

  it("polls instead of watching when asked to", async () => {
    const { dir, index } = await setUp();
    writeFiles(dir, { "memory/2026-04-01.md": "# polled\n" });
    const watcher = index.watch({ poll: 20 });
    expect(await watcher.nextSync()).toMatchObject({ added: 1 });
    await watcher.close();
  });

  it("stops on close: waiting callers are told, and close() on the index closes its watchers", async () => {
    const { index } = await setUp();
    const watcher = index.watch({ debounceMs: 10 });
    const pending = watcher.nextSync();
    await watcher.close();
    await expect(pending).rejects.toMatchObject({ code: "UNAVAILABLE" });
    await expect(watcher.nextSync()).rejects.toMatchObject({ code: "UNAVAILABLE" });

    const other = index.watch({ debounceMs: 10 });
    const waiting = other.nextSync();
    await index.close();
    await expect(waiting).rejects.toMatchObject({ code: "UNAVAILABLE" });
    await expect(index.search("x")).rejects.toMatchObject({ code: "UNAVAILABLE" });
  });

  it("rejects bad timings with INVALID_INPUT", async () => {
    const { index } = await setUp();
    expect(() => index.watch({ debounceMs: -1 })).toThrow("debounceMs");
    expect(() => index.watch({ poll: 0 })).toThrow("poll");
  });
});

describe("search during a sync", () => {
  it("answers from the current index without waiting for the sync in progress", async () => {
    const { dir, memory, index } = await setUp();
    let release = () => {};
    memory.importGate = new Promise<void>((resolve) => {
      release = resolve;
    });
    writeFiles(dir, { "memory/2026-05-01.md": "# New\n\nzebra crossing\n" });
    const syncing = index.sync();

    expect(await index.search("concise answers")).toHaveLength(1);
    expect(await index.search("zebra")).toEqual([]);

    release();
    expect(await syncing).toMatchObject({ added: 1 });
    expect((await index.search("zebra"))[0]?.path).toBe("memory/2026-05-01.md");
  });
});
