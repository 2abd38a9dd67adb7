import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../sqlite/test-support/temp-memory.js";
import { writeFileAtomic } from "./write-file-atomic.js";

describe("writeFileAtomic", () => {
  it("replaces the file and leaves no temp file behind", async () => {
    const dir = tempDir();
    const path = join(dir, "state.json");
    writeFileSync(path, "old");
    await writeFileAtomic(path, "new");
    expect(readFileSync(path, "utf8")).toBe("new");
    expect(readdirSync(dir)).toEqual(["state.json"]);
  });

  it("keeps the old file when the new one cannot be put in place", async () => {
    const dir = tempDir();
    const path = join(dir, "target");
    mkdirSync(path); // a folder where the file should go: rename fails
    writeFileSync(join(path, "inside"), "kept");
    await expect(writeFileAtomic(path, "new")).rejects.toThrow();
    expect(readFileSync(join(path, "inside"), "utf8")).toBe("kept");
    expect(readdirSync(dir)).toEqual(["target"]);
  });

  it("creates missing folders", async () => {
    const dir = tempDir();
    await writeFileAtomic(join(dir, "a", "b", "c.md"), "text");
    expect(readFileSync(join(dir, "a", "b", "c.md"), "utf8")).toBe("text");
  });

  it("writes chunks from an iterable as they come", async () => {
    const dir = tempDir();
    const path = join(dir, "export.jsonl");
    async function* lines() {
      for (let i = 0; i < 3; i++) yield `{"n":${i}}\n`;
    }
    await writeFileAtomic(path, lines());
    expect(readFileSync(path, "utf8")).toBe('{"n":0}\n{"n":1}\n{"n":2}\n');
    await writeFileAtomic(path, ["a", "é", "b"]);
    expect(readFileSync(path, "utf8")).toBe("aéb");
  });

  it("keeps the old file, and no temp file, when producing a chunk fails", async () => {
    const dir = tempDir();
    const path = join(dir, "export.jsonl");
    writeFileSync(path, "old");
    async function* failing() {
      yield "partial\n";
      throw new Error("the store went away");
    }
    await expect(writeFileAtomic(path, failing())).rejects.toThrow("the store went away");
    expect(readFileSync(path, "utf8")).toBe("old");
    expect(readdirSync(dir)).toEqual(["export.jsonl"]);
  });
});
