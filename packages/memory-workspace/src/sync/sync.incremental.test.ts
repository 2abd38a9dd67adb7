import { readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { countingMemory } from "../test-support/counting-memory.js";
import {
  DAYS,
  entriesIndexed,
  entriesTheFilesSay,
  writeFixtureWorkspace,
} from "../test-support/fixture-workspace.js";
import { openIndex, openMemory, tempDir, writeFiles } from "../test-support/temp-workspace.js";

async function setUp() {
  const dir = tempDir();
  writeFixtureWorkspace(dir);
  const memory = countingMemory(await openMemory(dir));
  const index = openIndex(memory, dir);
  return { dir, memory, index };
}

describe("sync", () => {
  it("indexes MEMORY.md, daily files, notes and bank pages into chunks and facts with their sources", async () => {
    const { dir, memory, index } = await setUp();
    const report = await index.sync();

    expect(report).toMatchObject({ added: 6, updated: 0, removed: 0, moved: 0, unchanged: 0, files: 6 });
    expect(report.entriesWritten).toBe(12 + 8); // a chunk per heading section, eight typed Retain bullets
    expect(await entriesIndexed(memory)).toEqual(entriesTheFilesSay(dir));

    const core = await memory.get("file:MEMORY.md#1");
    expect(core).toMatchObject({
      category: "core",
      content:
        "## Preferences\n- The user prefers concise answers.\n- Deploys happen on Fridays only after review.",
      source: { path: "MEMORY.md", startLine: 3, endLine: 5 },
    });
    const daily = await memory.get(`file:memory/${DAYS.recent}.md#0`);
    expect(daily?.category).toBe("daily");
    expect(daily?.createdAt).toBe(`${DAYS.recent}T00:00:00.000Z`);
    expect((await memory.get("file:memory/projects/warelay.md#0"))?.category).toBe("note");
    expect((await memory.get("file:bank/world.md#0"))?.category).toBe("core");

    const opinion = await memory.get(`fact:memory/${DAYS.recent}.md#L8`);
    expect(opinion).toMatchObject({
      category: "fact",
      content: "O(c=0.6) @Bob prefers Rust for services",
      source: { path: `memory/${DAYS.recent}.md`, startLine: 8, endLine: 8 },
      updatedAt: `${DAYS.recent}T00:00:00.000Z`,
    });
    expect((await memory.get(`fact:memory/${DAYS.chinese}.md#L6`))?.content).toBe("W @张三 在 杭州 工作");
    // A typed bullet under another heading is not a fact.
    expect(await memory.get(`fact:memory/${DAYS.recent}.md#L11`)).toBeNull();
  });

  it("writes nothing when syncing an unchanged workspace again", async () => {
    const { memory, index } = await setUp();
    await index.sync();
    const writesAfterFirst = memory.calls.length;

    const second = await index.sync();
    const third = await index.sync();

    expect(memory.calls.length).toBe(writesAfterFirst);
    for (const report of [second, third]) {
      expect(report).toMatchObject({ added: 0, updated: 0, removed: 0, moved: 0, unchanged: 6, files: 6 });
      expect(report.entriesWritten).toBe(0);
      expect(report.entriesRemoved).toBe(0);
      expect(report.reconciled).toBe(false);
    }
  });

  it("does not even read a file whose size and mtime are unchanged since it was last hashed", async () => {
    const { dir, memory, index } = await setUp();
    const path = join(dir, "bank/world.md");
    // Whole seconds, so the mtime survives the float round trip exactly.
    const anHourAgo = new Date(Math.floor(Date.now() / 1000) * 1000 - 3_600_000);
    utimesSync(path, anHourAgo, anHourAgo);
    await index.sync();
    // Same size, same mtime, other bytes: only a sync that reads the file could notice.
    writeFileSync(path, readFileSync(path, "utf8").replace("castle-net", "castle-NET"));
    utimesSync(path, anHourAgo, anHourAgo);
    expect(statSync(path).mtimeMs).toBe(anHourAgo.getTime());

    expect((await index.sync()).entriesWritten).toBe(0);
    expect((await memory.get("file:bank/world.md#0"))?.content).toContain("castle-net");
    // A full sync reads everything and catches it.
    expect(await index.sync({ full: true })).toMatchObject({ updated: 1, entriesWritten: 1 });
    expect((await memory.get("file:bank/world.md#0"))?.content).toContain("castle-NET");
  });

  it("replaces an edited file's entries in one import that also removes its stale keys", async () => {
    const { dir, memory, index } = await setUp();
    await index.sync();
    memory.calls.length = 0;
    const path = `memory/${DAYS.recent}.md`;
    writeFiles(dir, {
      [path]: `# ${DAYS.recent}\n\nMet @Alice again.\n\n## Retain\n- W @Alice moved to Globex\n`,
    });

    const report = await index.sync();

    expect(report).toMatchObject({ added: 0, updated: 1, removed: 0, unchanged: 5, files: 6 });
    expect(memory.calls).toEqual([
      {
        method: "import",
        keys: [`file:${path}#0`, `file:${path}#1`, `fact:${path}#L6`],
        removed: [`file:${path}#2`, `fact:${path}#L7`, `fact:${path}#L8`],
      },
    ]);
    expect(await entriesIndexed(memory)).toEqual(entriesTheFilesSay(dir));
    expect((await memory.get(`fact:${path}#L6`))?.content).toBe("W @Alice moved to Globex");
  });

  it("moves a renamed file's entries to the new path in one transaction", async () => {
    const { dir, memory, index } = await setUp();
    await index.sync();
    memory.calls.length = 0;
    renameSync(join(dir, "memory/projects/warelay.md"), join(dir, "memory/warelay.md"));

    const report = await index.sync();

    expect(report).toMatchObject({ added: 0, updated: 0, moved: 1, removed: 0, files: 6 });
    expect(memory.calls).toEqual([
      {
        method: "import",
        keys: ["file:memory/warelay.md#0"],
        removed: ["file:memory/projects/warelay.md#0"],
      },
    ]);
    expect(await memory.get("file:memory/projects/warelay.md#0")).toBeNull();
    expect((await memory.get("file:memory/warelay.md#0"))?.source?.path).toBe("memory/warelay.md");
    expect(await entriesIndexed(memory)).toEqual(entriesTheFilesSay(dir));
  });

  it("removes a deleted file's chunks and facts", async () => {
    const { dir, memory, index } = await setUp();
    await index.sync();
    rmSync(join(dir, `memory/${DAYS.chinese}.md`));

    const report = await index.sync();

    expect(report).toMatchObject({ removed: 1, files: 5, entriesRemoved: 2 + 3 });
    expect(await memory.get(`fact:memory/${DAYS.chinese}.md#L6`)).toBeNull();
    expect(await entriesIndexed(memory)).toEqual(entriesTheFilesSay(dir));
  });

  it("keeps the index equal to the files through a series of edits, renames, deletions and additions", async () => {
    const { dir, memory, index } = await setUp();
    await index.sync();
    writeFiles(dir, { "memory/notes/ideas.md": "# Ideas\n\n- index session transcripts\n" });
    renameSync(join(dir, "bank/world.md"), join(dir, "bank/places.md"));
    writeFiles(dir, { "MEMORY.md": "# Memory\n\n- The user now prefers detailed answers.\n" });
    rmSync(join(dir, `memory/${DAYS.old}.md`));

    const report = await index.sync();

    expect(report).toMatchObject({ added: 1, updated: 1, moved: 1, removed: 1, files: 6 });
    expect(await entriesIndexed(memory)).toEqual(entriesTheFilesSay(dir));
  });

  it("finishes the work of a sync that failed half-way on the next sync", async () => {
    const { dir, memory, index } = await setUp();
    await index.sync();
    writeFiles(dir, {
      "MEMORY.md": "# Memory\n\n- short now\n",
      [`memory/${DAYS.recent}.md`]: `# ${DAYS.recent}\n\n## Retain\n- W @Alice left Acme\n`,
    });
    memory.failNextImport = true;

    await expect(index.sync()).rejects.toThrow("simulated crash");
    const report = await index.sync();

    expect(report.updated).toBe(2);
    expect(await entriesIndexed(memory)).toEqual(entriesTheFilesSay(dir));
  });

  it("ignores files that are not memory files", async () => {
    const dir = tempDir();
    writeFiles(dir, {
      "notes.md": "# not a memory file\n",
      "memory/data.json": "{}",
      "memory/.hidden.md": "# hidden\n",
      ".claw-memory/whatever.md": "# state\n",
      "memory/today.md": "# kept\n",
    });
    const memory = await openMemory(dir);
    const report = await openIndex(memory, dir).sync();

    expect(report.files).toBe(1);
    expect((await memory.export()).map((e) => e.key)).toEqual(["file:memory/today.md#0"]);
  });

  it("indexes extra paths inside the workspace, and an empty file as no entries", async () => {
    const dir = tempDir();
    writeFiles(dir, {
      "projects/alpha.md": "# Alpha\n\nThe alpha project ships in March.\n",
      "projects/2026-01-05.md": "# log\n\n## Retain\n- W @Alpha shipped\n",
      "memory/empty.md": "",
    });
    const memory = await openMemory(dir);
    const report = await openIndex(memory, dir, { extraPaths: ["projects"] }).sync();

    expect(report.files).toBe(3);
    expect((await memory.export()).map((e) => [e.key, e.category]).sort()).toEqual([
      ["fact:projects/2026-01-05.md#L4", "fact"],
      ["file:projects/2026-01-05.md#0", "daily"],
      ["file:projects/2026-01-05.md#1", "daily"],
      ["file:projects/alpha.md#0", "note"],
    ]);
  });

  it("chunks long files with overlapping line ranges", async () => {
    const dir = tempDir();
    const lines = Array.from(
      { length: 120 },
      (_, i) => `Line ${i + 1} of a long daily log about the deployment.`,
    );
    writeFiles(dir, { "memory/2026-02-01.md": `# Log\n\n${lines.join("\n")}\n` });
    const memory = await openMemory(dir);
    await openIndex(memory, dir).sync();

    const chunks = (await memory.export()).map((e) => e.source as { startLine: number; endLine: number });
    expect(chunks.length).toBeGreaterThan(3);
    for (const entry of await memory.export()) expect(entry.content.length).toBeLessThanOrEqual(1600);
    chunks.sort((a, b) => a.startLine - b.startLine);
    for (let i = 1; i < chunks.length; i++) {
      // 80 tokens (~320 characters) of overlap: the next chunk starts before the previous ends.
      expect(chunks[i]?.startLine).toBeLessThanOrEqual(chunks[i - 1]?.endLine as number);
    }
    expect(chunks.at(-1)?.endLine).toBe(122);
  });

  it("rejects bad options with INVALID_INPUT naming the option", async () => {
    const dir = tempDir();
    const memory = await openMemory(dir);
    expect(() => openIndex(memory, dir, { extraPaths: ["../outside"] })).toThrow("extraPaths[0]");
    expect(() => openIndex(memory, dir, { extraPaths: ["/etc"] })).toThrow("extraPaths[0]");
    expect(() => openIndex(memory, dir, { namespace: "*" })).toThrow("namespace");
    expect(() => openIndex(memory, dir, { chunkTokens: 10, chunkOverlapTokens: 10 })).toThrow(
      "chunkOverlapTokens",
    );
    expect(() => openIndex(memory, "")).toThrow("workspaceDir");
  });
});
