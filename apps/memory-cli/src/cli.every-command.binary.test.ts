import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runBinary, tempWorkspace } from "./test-support/cli-harness.js";

/**
 * Every one-shot command through the built binary, in one workspace: exit code and a value each.
 * (serve, watch and mcp run until stopped; they have their own tests.)
 */
describe("every command through the built binary", () => {
  // ~45 processes started one after another: ~16 s on an idle 2-core machine, over 60 s on a busy
  // one (each start of Node and the CLI's modules competes for the cores).
  it("runs end to end with the expected exit codes and output", { timeout: 300_000 }, async () => {
    const ws = tempWorkspace();
    mkdirSync(join(ws, "memory"));
    writeFileSync(join(ws, "MEMORY.md"), "# Memory\n\nThe user prefers dark roast coffee.\n");
    writeFileSync(join(ws, "memory", "2026-11-20.md"), "# Day\n\n## Retain\n\n- W @Alice works at Acme\n");
    const env = { CLAW_MEMORY_WORKSPACE: ws };
    const run = async (args: string[], stdin?: string) => runBinary(["--json", ...args], { env, stdin });
    const json = async (args: string[], stdin?: string) => {
      const result = await run(args, stdin);
      expect({ args, code: result.code, stderr: result.stderr }).toMatchObject({ code: 0 });
      return JSON.parse(result.stdout);
    };

    expect((await json(["init", "--force"])).config).toBe(join(ws, "claw-memory.toml"));
    expect((await json(["config"])).memory.searchMode).toBe("hybrid");
    expect((await json(["store", "tz", "The user lives in Lisbon"])).key).toBe("tz");
    expect((await json(["get", "tz"])).content).toBe("The user lives in Lisbon");
    expect((await json(["recall", "Lisbon"]))[0].key).toBe("tz");
    expect((await json(["list"])).map((e: { key: string }) => e.key)).toEqual(["tz"]);
    expect((await json(["import"], '{"key":"pet","content":"A cat named Miso"}\n')).imported).toBe(1);
    expect((await run(["export"])).stdout.trimEnd().split("\n").length).toBe(2);
    expect((await json(["status"])).entries).toBe(2);
    expect(await json(["reindex"])).toEqual({ reindexed: 2 }); // keyword-only: the full-text index is rebuilt
    expect(await json(["backfill"])).toEqual({ embedded: 0 });
    expect((await json(["hygiene", "--force"])).ran).toBe(true);
    expect((await json(["snapshot"])).count).toBe(2);
    expect(await json(["hydrate"])).toEqual({ hydrated: 0 });
    expect((await json(["consolidate", "Important: always lock the door"])).core.category).toBe("core");
    expect((await json(["context", "where does the user live"])).stable.keys).toContain("tz");
    expect((await json(["sync"])).added).toBe(2);
    expect((await json(["search", "dark roast"]))[0].path).toBe("MEMORY.md");
    expect((await json(["read", "MEMORY.md", "--from", "3"])).text).toBe(
      "The user prefers dark roast coffee.",
    );
    expect((await json(["entity", "Alice"])).facts.length).toBe(1);
    expect((await json(["reflect"])).written).toContain("bank/opinions.md");
    expect(await json(["forget", "pet"])).toEqual({ key: "pet", removed: true });
    expect(
      (await json(["history", "pet"])).map((v: { version: number; action: string; actor: string }) => [
        v.version,
        v.action,
        v.actor,
      ]),
    ).toEqual([
      [2, "forget", "cli"],
      [1, "create", "cli"],
    ]);
    expect((await json(["restore", "pet", "1"])).content).toBe("A cat named Miso");
    expect((await json(["store", "door", "The door code is 4711", "--ttl", "1h"])).expiresAt).toMatch(/Z$/);
    expect(await json(["purge-expired"])).toEqual({ removed: 0 });
    const backup = await json(["backup", join(ws, "backups", "store.db")]);
    expect(backup.entries).toBe((await json(["status"])).entries);
    // The store holds entries: restore refuses to replace it without --force (CONFLICT, exit 1).
    expect((await run(["restore", backup.path])).code).toBe(1);
    expect((await json(["purge", "--namespace", "default", "--yes"])).purged).toBeGreaterThan(0);

    const curate = await run(["curate"]);
    expect(curate.code).toBe(2);
    expect(JSON.parse(curate.stdout).error.code).toBe("USAGE");
    expect((await run(["get", "pet"])).code).toBe(3);
    // A purge deletes the history too.
    expect((await run(["history", "pet"])).code).toBe(3);
    expect((await run(["restore", "pet", "0"])).code).toBe(2);
    expect((await run(["read", "../outside.md"])).code).toBe(2);
  });
});
