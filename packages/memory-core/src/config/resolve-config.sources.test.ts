import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isMemoryError } from "@claw/memory-api";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { MemoryConfigInput } from "./config-schema.js";
import { CONFIG_FILE_NAME, resolveConfig } from "./resolve-config.js";
import { captureLogger, rejectionOf } from "./test-support/config-test-helpers.js";

let workspaceDir: string;

beforeEach(async () => {
  workspaceDir = await mkdtemp(join(tmpdir(), "claw-config-resolve-"));
});

afterEach(async () => {
  await rm(workspaceDir, { recursive: true, force: true });
});

async function writeWorkspaceConfig(text: string): Promise<void> {
  const path = join(workspaceDir, CONFIG_FILE_NAME);
  await writeFile(path, text);
  await chmod(path, 0o600);
}

describe("resolveConfig", () => {
  it("nothing given and no claw-memory.toml: the defaults", async () => {
    const config = await resolveConfig(undefined, { workspaceDir });

    expect(config.memory.searchMode).toBe("hybrid");
  });

  it("nothing given: the workspace's claw-memory.toml", async () => {
    await writeWorkspaceConfig('[memory]\nsearch_mode = "bm25"\n');
    const config = await resolveConfig(undefined, { workspaceDir });

    expect(config.memory.searchMode).toBe("bm25");
  });

  it("an invalid workspace file is an error, not the defaults", async () => {
    await writeWorkspaceConfig("[memory]\nconflict_threshold = 7\n");
    const error = await rejectionOf(resolveConfig(undefined, { workspaceDir }));

    expect(isMemoryError(error, "INVALID_INPUT")).toBe(true);
  });

  it("a string is the path of a TOML file, which must exist", async () => {
    const path = join(workspaceDir, "other.toml");
    await writeFile(path, '[memory]\nsearch_mode = "embedding"\n');
    await writeWorkspaceConfig('[memory]\nsearch_mode = "bm25"\n');

    expect((await resolveConfig(path, { workspaceDir })).memory.searchMode).toBe("embedding");
    const error = await rejectionOf(resolveConfig(join(workspaceDir, "nope.toml"), { workspaceDir }));
    expect(isMemoryError(error, "NOT_FOUND")).toBe(true);
  });

  it("an object is a camelCase config, and the workspace file is not read", async () => {
    await writeWorkspaceConfig('[memory]\nsearch_mode = "bm25"\n');
    const logger = captureLogger();
    // The misspelt key gets past the type the way it would from JavaScript or parsed JSON.
    const input = { mergeStrategy: "weighted", memory: { serchMode: "x" } } as MemoryConfigInput;
    const config = await resolveConfig(input, { workspaceDir, logger });

    expect(config.memory.searchMode).toBe("hybrid");
    expect(config.memory.mergeStrategy.kind).toBe("weighted");
    expect(logger.messages("warn")).toEqual(["unknown config key memory.serch_mode"]);
  });
});
