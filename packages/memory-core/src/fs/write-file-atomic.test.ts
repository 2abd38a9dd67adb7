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
});
