import { rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeFixtureWorkspace } from "../test-support/fixture-workspace.js";
import { openIndex, openMemory, tempDir } from "../test-support/temp-workspace.js";

const TOKEN = "sk-admin-0123456789abcdef";

describe("sync and search never index what a link leads to outside the memory files", () => {
  it("refuses a memory/ link to the config file, reports it, and removes what an earlier sync indexed", async () => {
    const dir = tempDir();
    writeFixtureWorkspace(dir);
    writeFileSync(join(dir, "claw-memory.toml"), `[[server.tokens]]\ntoken = "${TOKEN}"\n`, { mode: 0o600 });
    const memory = await openMemory(dir);
    const index = openIndex(memory, dir);
    // First an ordinary note holding the same words, indexed.
    writeFileSync(join(dir, "memory/notes.md"), `# Notes\n\nserver tokens ${TOKEN}\n`);
    await index.sync();
    expect((await index.search(TOKEN)).map((h) => h.path)).toEqual(["memory/notes.md"]);

    // Then the note becomes a link to the config.
    rmSync(join(dir, "memory/notes.md"));
    symlinkSync(join(dir, "claw-memory.toml"), join(dir, "memory/notes.md"));
    const report = await index.sync();
    expect(report.refused).toEqual([
      { path: "memory/notes.md", reason: "it is a link to claw-memory.toml, which is not a memory file" },
    ]);
    expect(report.removed).toBe(1);
    expect(await index.search(TOKEN)).toEqual([]);
    expect(await index.search("server tokens")).toEqual([]);
    await expect(index.read("memory/notes.md")).rejects.toMatchObject({ code: "FORBIDDEN" });
  });

  it("refuses links to dotfiles and follows a link to another memory file", async () => {
    const dir = tempDir();
    writeFixtureWorkspace(dir);
    writeFileSync(join(dir, ".secrets.md"), `token ${TOKEN}\n`);
    symlinkSync(join(dir, ".secrets.md"), join(dir, "memory/secrets.md"));
    symlinkSync(join(dir, "bank/world.md"), join(dir, "memory/world-link.md"));
    const index = openIndex(await openMemory(dir), dir);
    const report = await index.sync();
    expect(report.refused.map((r) => r.path)).toEqual(["memory/secrets.md"]);
    expect(await index.search(TOKEN)).toEqual([]);
    // The link to a memory file is indexed (as a file of its own path).
    expect((await index.search("castle-net wifi")).map((h) => h.path)).toContain("memory/world-link.md");
  });
});
