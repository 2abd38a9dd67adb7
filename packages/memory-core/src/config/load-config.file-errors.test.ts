import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isMemoryError } from "@claw/memory-api";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadConfig, loadConfigFromToml } from "./load-config.js";
import { rejectionOf, thrownBy } from "./test-support/config-test-helpers.js";

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "claw-config-errors-"));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("loadConfig file handling", () => {
  it("no path gives the defaults", async () => {
    const config = await loadConfig();

    expect(config.memory.searchMode).toBe("hybrid");
    expect(config.server.port).toBe(7878);
  });

  it("reads and validates a file", async () => {
    const path = join(dir, "claw-memory.toml");
    await writeFile(path, '[memory]\nsearch_mode = "bm25"\n[server]\nbody_limit_bytes = 2048\n');
    const config = await loadConfig(path);

    expect(config.memory.searchMode).toBe("bm25");
    expect(config.server.bodyLimitBytes).toBe(2048);
  });

  it("a missing file is NOT_FOUND naming the path", async () => {
    const path = join(dir, "missing.toml");
    const error = await rejectionOf(loadConfig(path));

    expect(isMemoryError(error, "NOT_FOUND")).toBe(true);
    expect(error.message).toContain(path);
    expect((error.cause as NodeJS.ErrnoException).code).toBe("ENOENT");
  });

  it("a path that cannot be read as a file is STORAGE with the cause", async () => {
    const path = join(dir, "a-directory.toml");
    await mkdir(path);
    const error = await rejectionOf(loadConfig(path));

    expect(isMemoryError(error, "STORAGE")).toBe(true);
    expect(error.message).toContain(path);
    expect(error.cause).toBeInstanceOf(Error);
  });

  it("a path that cannot be read as a file is STORAGE, not NOT_FOUND", async () => {
    // A directory fails to read (EISDIR) even for root, unlike a chmod 000 file.
    const path = join(dir, "a-directory.toml");
    await mkdir(path);
    const error = await rejectionOf(loadConfig(path));

    expect(isMemoryError(error, "STORAGE")).toBe(true);
  });

  it("a TOML syntax error is INVALID_INPUT naming the file and the line", async () => {
    const path = join(dir, "broken.toml");
    await writeFile(path, '[memory]\nsearch_mode = "bm25"\nauto_save = = true\n');
    const error = await rejectionOf(loadConfig(path));

    expect(isMemoryError(error, "INVALID_INPUT")).toBe(true);
    expect(error.message).toContain(path);
    expect(error.message).toContain("line 3");
  });

  it("a TOML syntax error in text names the given source and does not quote the file", () => {
    const error = thrownBy(() =>
      loadConfigFromToml('[[server.tokens]]\ntoken = "hunter2"\nread_only = = true\n', {
        source: "inline.toml",
      }),
    );

    expect(isMemoryError(error, "INVALID_INPUT")).toBe(true);
    expect(error.message).toMatch(/^invalid TOML in inline\.toml at line 3, column \d+: /);
    expect(error.message).not.toContain("hunter2");
  });
});
