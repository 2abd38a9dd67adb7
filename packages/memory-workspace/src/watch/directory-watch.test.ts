import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { tempDir, writeFiles } from "../test-support/temp-workspace.js";
import { DirectoryWatch } from "./directory-watch.js";

/** Watches `dir` like the workspace watcher does; resolves `seen(name)` once a path ending in name arrives. */
function watchWorkspace(dir: string) {
  const paths: string[] = [];
  const waiting: Array<{ suffix: string; resolve: () => void }> = [];
  const watch = new DirectoryWatch({
    workspaceDir: dir,
    rootNames: new Set(["MEMORY.md", "memory.md", "memory", "bank"]),
    trees: ["memory", "bank"],
    flat: [],
    onChange: (path) => {
      paths.push(path.slice(dir.length + 1));
      for (const w of waiting.filter((w) => path.endsWith(w.suffix))) w.resolve();
    },
    onFailure: (error) => {
      throw error;
    },
  });
  onTestFinished(() => watch.close());
  const seen = (suffix: string) => new Promise<void>((resolve) => waiting.push({ suffix, resolve }));
  return { paths, seen };
}

describe("DirectoryWatch", () => {
  it("reports memory files and ignores the database, other files and hidden names", async () => {
    const dir = tempDir();
    writeFiles(dir, { "memory/a.md": "", "bank/b.md": "" });
    const { paths, seen } = watchWorkspace(dir);
    const arrived = seen("bank/b.md");

    writeFileSync(join(dir, "brain.db-wal"), "x");
    writeFileSync(join(dir, "notes.txt"), "x");
    writeFiles(dir, { "memory/.draft.md": "x", ".claw-memory/index.json": "{}" });
    writeFileSync(join(dir, "bank/b.md"), "changed");
    await arrived;

    expect(new Set(paths)).toEqual(new Set(["bank/b.md"]));
  });

  it("starts watching folders created later, at any depth", async () => {
    const dir = tempDir();
    const { seen } = watchWorkspace(dir);
    const root = seen("memory");
    mkdirSync(join(dir, "memory/2026"), { recursive: true });
    await root;
    // The new folders are watched once the burst of folder events has been handled.
    await new Promise<void>((resolve) => setImmediate(resolve));
    const deep = seen("memory/2026/2026-01-01.md");
    writeFileSync(join(dir, "memory/2026/2026-01-01.md"), "# deep\n");
    await deep;
  });
});
