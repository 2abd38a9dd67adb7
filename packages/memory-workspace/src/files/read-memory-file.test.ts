import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isMemoryError } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { tempDir, writeFiles } from "../test-support/temp-workspace.js";
import { readMemoryFile } from "./read-memory-file.js";

function workspace() {
  const dir = tempDir();
  writeFiles(dir, {
    "MEMORY.md": "# Memory\nline 2\nline 3\nline 4\n",
    "memory/2026-11-20.md": "# Today\r\nwith CRLF\r\n",
    "bank/entities/张三.md": "# 张三\n",
    "projects/alpha.md": "# Alpha\n",
    "notes.md": "# not memory\n",
  });
  return dir;
}

async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (isMemoryError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("read (memory_get)", () => {
  it("returns a whole file with its line range", async () => {
    const dir = workspace();
    expect(await readMemoryFile(dir, [], "MEMORY.md")).toEqual({
      path: "MEMORY.md",
      text: "# Memory\nline 2\nline 3\nline 4",
      from: 1,
      to: 4,
    });
    expect(await readMemoryFile(dir, [], "memory/2026-11-20.md")).toEqual({
      path: "memory/2026-11-20.md",
      text: "# Today\nwith CRLF",
      from: 1,
      to: 2,
    });
    expect((await readMemoryFile(dir, [], "./bank//entities/张三.md")).path).toBe("bank/entities/张三.md");
  });

  it("returns `lines` lines from line `from`", async () => {
    const dir = workspace();
    expect(await readMemoryFile(dir, [], "MEMORY.md", { from: 2, lines: 2 })).toEqual({
      path: "MEMORY.md",
      text: "line 2\nline 3",
      from: 2,
      to: 3,
    });
    expect(await readMemoryFile(dir, [], "MEMORY.md", { from: 4, lines: 10 })).toMatchObject({
      text: "line 4",
      to: 4,
    });
    expect(await readMemoryFile(dir, [], "MEMORY.md", { from: 9 })).toMatchObject({
      text: "",
      from: 9,
      to: 8,
    });
  });

  it("reads a missing memory file as empty text", async () => {
    expect(await readMemoryFile(workspace(), [], "memory/2020-01-01.md")).toEqual({
      path: "memory/2020-01-01.md",
      text: "",
      from: 1,
      to: 0,
    });
  });

  it("allows configured extra paths and nothing else outside the memory folders", async () => {
    const dir = workspace();
    expect((await readMemoryFile(dir, ["projects"], "projects/alpha.md")).text).toBe("# Alpha");
    expect(await refusal(readMemoryFile(dir, [], "projects/alpha.md"))).toEqual({
      code: "FORBIDDEN",
      message: "path: projects/alpha.md is not a memory file (allowed: MEMORY.md, memory/, bank/)",
    });
    expect(await refusal(readMemoryFile(dir, ["projects"], "notes.md"))).toEqual({
      code: "FORBIDDEN",
      message: "path: notes.md is not a memory file (allowed: MEMORY.md, memory/, bank/, projects)",
    });
  });

  it("refuses '..' segments, even ones that would resolve inside", async () => {
    const dir = workspace();
    for (const path of ["../etc/passwd.md", "memory/../MEMORY.md", "memory\\..\\..\\x.md"]) {
      expect(await refusal(readMemoryFile(dir, [], path))).toEqual({
        code: "INVALID_INPUT",
        message: `path: must not contain '..' segments: ${path}`,
      });
    }
  });

  it("refuses absolute paths", async () => {
    const dir = workspace();
    for (const path of [
      join(dir, "MEMORY.md"),
      "/etc/passwd",
      "C:\\Windows\\x.md",
      "\\\\server\\share\\x.md",
    ]) {
      expect(await refusal(readMemoryFile(dir, [], path))).toEqual({
        code: "INVALID_INPUT",
        message: `path: must be relative to the workspace, not absolute: ${path}`,
      });
    }
  });

  it("refuses files that are not Markdown", async () => {
    const dir = workspace();
    writeFiles(dir, { "memory/data.json": "{}" });
    expect(await refusal(readMemoryFile(dir, [], "memory/data.json"))).toEqual({
      code: "INVALID_INPUT",
      message: "path: only Markdown (.md) files can be read: memory/data.json",
    });
    expect(await refusal(readMemoryFile(dir, [], "brain.db"))).toMatchObject({ code: "INVALID_INPUT" });
  });

  it("refuses symbolic links leading out of the workspace, and follows those that stay inside", async () => {
    const dir = workspace();
    const outside = tempDir();
    writeFileSync(join(outside, "secret.md"), "# secret\n");
    symlinkSync(join(outside, "secret.md"), join(dir, "memory/linked.md"));
    symlinkSync(outside, join(dir, "memory/linked-folder"));
    symlinkSync(join(outside, "missing.md"), join(dir, "memory/dangling.md"));
    symlinkSync(join(dir, "MEMORY.md"), join(dir, "memory/inside.md"));

    for (const path of [
      "memory/linked.md",
      "memory/linked-folder/secret.md",
      "memory/linked-folder/new.md",
      "memory/dangling.md",
    ]) {
      expect(await refusal(readMemoryFile(dir, [], path))).toEqual({
        code: "FORBIDDEN",
        message: `path: ${path} is refused: it is a link leading out of the workspace`,
      });
    }
    expect((await readMemoryFile(dir, [], "memory/inside.md")).text).toContain("# Memory");
  });

  it("refuses links to the config, dotfiles and other files of the workspace (they may hold secrets)", async () => {
    const dir = workspace();
    writeFileSync(join(dir, "claw-memory.toml"), '[[server.tokens]]\ntoken = "sk-admin-secret"\n');
    writeFileSync(join(dir, ".env.md"), "OPENAI_API_KEY=sk-secret\n");
    writeFileSync(join(dir, "README.md"), "# not a memory file\n");
    mkdirSync(join(dir, ".private"), { recursive: true });
    writeFileSync(join(dir, ".private/notes.md"), "hidden\n");
    symlinkSync(join(dir, "claw-memory.toml"), join(dir, "memory/notes.md"));
    symlinkSync(join(dir, ".env.md"), join(dir, "memory/env.md"));
    symlinkSync(join(dir, "README.md"), join(dir, "memory/readme.md"));
    symlinkSync(join(dir, ".private"), join(dir, "memory/private"));
    const cases: Array<[string, string]> = [
      ["memory/notes.md", "it is a link to claw-memory.toml, which is not a memory file"],
      ["memory/env.md", "it is a link to a hidden file (.env.md)"],
      ["memory/readme.md", "it is a link to README.md, which is not a memory file"],
      ["memory/private/notes.md", "it is a link to a hidden file (.private/notes.md)"],
    ];
    for (const [path, reason] of cases) {
      expect(await refusal(readMemoryFile(dir, [], path))).toEqual({
        code: "FORBIDDEN",
        message: `path: ${path} is refused: ${reason}`,
      });
    }
  });

  it("refuses empty paths, folders and bad line numbers, naming the field", async () => {
    const dir = workspace();
    mkdirSync(join(dir, "memory/folder.md"));
    expect(await refusal(readMemoryFile(dir, [], ""))).toEqual({
      code: "INVALID_INPUT",
      message: "path: must be a non-empty path relative to the workspace",
    });
    expect(await refusal(readMemoryFile(dir, [], "memory/folder.md"))).toEqual({
      code: "INVALID_INPUT",
      message: "path: memory/folder.md is a folder, not a file",
    });
    expect(await refusal(readMemoryFile(dir, [], "MEMORY.md", { from: 0 }))).toEqual({
      code: "INVALID_INPUT",
      message: "from: must be an integer of at least 1, got 0",
    });
    expect(await refusal(readMemoryFile(dir, [], "MEMORY.md", { lines: 1.5 }))).toEqual({
      code: "INVALID_INPUT",
      message: "lines: must be an integer of at least 1, got 1.5",
    });
  });
});
