// A full store as the CLI user meets it (`max_database_mb` reached): `store` exits 5 with the
// full-disk hint and writes nothing, reads go on, and once `purge` frees room `store` works again.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { isMemoryError } from "@claw/memory-api";
import { createMemory } from "@claw/memory-core";
import { describe, expect, it } from "vitest";
import { runBinary, runInProcess, tempWorkspace } from "../test-support/cli-harness.js";

const HINT =
  "the disk (or max_database_mb) is full: nothing was written; free space on the disk, or erase entries with `claw-memory purge`";

/** A workspace capped at 1 MiB by its claw-memory.toml, filled with entries of namespace "old". */
async function fullWorkspace(): Promise<{ ws: string; stored: number }> {
  const ws = tempWorkspace();
  writeFileSync(join(ws, "claw-memory.toml"), "[memory]\nmax_database_mb = 1\n");
  const memory = await createMemory({ workspaceDir: ws, embeddings: null });
  try {
    for (let i = 0; i < 100_000; i++) {
      try {
        await memory.store(`old-${i}`, `old entry ${i}, the walrus${i} ${"lorem ipsum dolor ".repeat(30)}`, {
          namespace: "old",
        });
      } catch (error) {
        if (isMemoryError(error, "STORAGE_FULL")) return { ws, stored: i };
        throw error;
      }
    }
    throw new Error("the store never filled up");
  } finally {
    await memory.close();
  }
}

describe("the CLI on a full store", () => {
  it("store exits 5 with the full-disk hint; reads exit 0; after a purge store works again", async () => {
    const { ws, stored } = await fullWorkspace();
    const text = `the narwhal ${"sings at dawn ".repeat(500)}`;

    const refused = await runInProcess(["-w", ws, "store", "note", text]);
    const refusedJson = await runInProcess(["-w", ws, "--json", "store", "note", text]);
    const binary = await runBinary(["-w", ws, "store", "note", text]);
    const recalled = await runInProcess([
      "-w",
      ws,
      "--json",
      "recall",
      "walrus3",
      "--namespace",
      "old",
      "--limit",
      "1",
    ]);
    const missing = await runInProcess(["-w", ws, "get", "note"]);

    expect(stored).toBeGreaterThan(100);
    expect(refused.code).toBe(5);
    expect(refused.stderr).toContain(HINT);
    expect(refused.stderr).not.toContain("claw-memory doctor");
    expect(JSON.parse(refusedJson.stdout).error.code).toBe("STORAGE_FULL");
    expect(binary.code).toBe(5);
    expect(binary.stderr).toContain(HINT);
    expect(recalled.code).toBe(0);
    expect(JSON.parse(recalled.stdout).map((e: { key: string }) => e.key)).toEqual(["old-3"]);
    expect(missing.code).toBe(3);

    const purged = await runInProcess(["-w", ws, "purge", "--namespace", "old", "-y"]);
    const accepted = await runInProcess(["-w", ws, "store", "note", text]);
    const got = await runInProcess(["-w", ws, "--json", "get", "note"]);

    expect(purged.code).toBe(0);
    expect(accepted.code).toBe(0);
    expect(JSON.parse(got.stdout).content).toBe(text);
  });
});
