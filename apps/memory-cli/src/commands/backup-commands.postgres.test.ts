// `backup` and `restore FILE` on PostgreSQL (PGlite, and the server CLAW_MEMORY_PG_URL names): the
// NDJSON backup imported back, refused over a store with entries unless --force (then an upsert),
// with every key's history; a plain `import` of it takes the entries and skips the history lines.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { MemoryVersion } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { forEachTestDatabase } from "../../../../packages/memory-postgres/src/test-support/test-database.js";
import { runInProcess, tempWorkspace } from "../test-support/cli-harness.js";

forEachTestDatabase((database) => {
  /** A workspace on a schema of its own; `run` runs the CLI there. */
  function postgresWorkspace() {
    const ws = tempWorkspace();
    writeFileSync(
      join(ws, "claw-memory.toml"),
      `[memory]\nbackend = "postgres"\n\n[postgres]\nschema = "${database().newSchema()}"\npool_max = ${database().poolMax}\n`,
    );
    const env = { CLAW_MEMORY_PG_URL: database().url };
    return {
      ws,
      run: (args: string[], stdin?: string) => runInProcess(["-w", ws, ...args], { env, stdin }),
    };
  }

  async function keysOf(run: (args: string[]) => ReturnType<typeof runInProcess>): Promise<string[]> {
    const { stdout } = await run(["--json", "export"]);
    return stdout
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => (JSON.parse(l) as { key: string }).key)
      .sort();
  }

  /** `history KEY` as JSON (an empty list for a key without history). */
  async function historyOf(
    run: (args: string[]) => ReturnType<typeof runInProcess>,
    key: string,
    namespace = "default",
  ): Promise<MemoryVersion[]> {
    const result = await run(["--json", "history", key, "--namespace", namespace]);
    if (result.code === 3) return [];
    expect(result.code).toBe(0);
    return JSON.parse(result.stdout) as MemoryVersion[];
  }

  /** The keys the history test writes: [namespace, key]. */
  const KEYS = [
    ["default", "tz"],
    ["default", "pet"],
    ["default", "promo"],
    ["tenant", "plan"],
  ] as const;

  describe("backup and restore on PostgreSQL", () => {
    it("carries every key's history: restored into an empty store, history() is the same", async () => {
      const source = postgresWorkspace();
      const steps: Array<[string[], string?]> = [
        [["store", "tz", "The user lives in Lisbon"]],
        [["store", "tz", "The user lives in Porto"]],
        [["restore", "tz", "1"]],
        [["store", "pet", "The user has a cat"]],
        [["forget", "pet"]],
        [["store", "--namespace", "tenant", "plan", "Pro plan"]],
        [["store", "--namespace", "tenant", "plan", "Team plan"]],
        [["store", "promo", "50% off"]],
        // Its latest version has expired: not an entry of the backup, and never current again.
        [["import"], JSON.stringify({ key: "promo", content: "60% off", expiresAt: "2020-01-01T00:00:00Z" })],
      ];
      for (const [args, stdin] of steps) expect((await source.run(args, stdin)).code).toBe(0);
      const original: Record<string, MemoryVersion[]> = {};
      for (const [ns, key] of KEYS) original[`${ns}/${key}`] = await historyOf(source.run, key, ns);
      expect(original["default/tz"]?.map((v) => [v.version, v.action, v.actor])).toEqual([
        [3, "restore", "cli"],
        [2, "update", "cli"],
        [1, "create", "cli"],
      ]);
      expect(original["default/pet"]?.map((v) => [v.version, v.action, v.deleted])).toEqual([
        [2, "forget", true],
        [1, "create", false],
      ]);

      const file = join(tempWorkspace(), "store.ndjson");
      const backup = await source.run(["--json", "backup", file]);
      expect(backup.code).toBe(0);
      expect(JSON.parse(backup.stdout)).toMatchObject({ entries: 2, versions: 9 });
      expect((await source.run(["backup", file])).stdout).toMatch(
        /^backed up 2 memories and 9 versions of their history to /,
      );
      const lines = readFileSync(file, "utf8").trimEnd().split("\n");
      expect(lines).toHaveLength(11);
      expect(lines.slice(2).every((l) => l.startsWith('{"history":{'))).toBe(true);

      // Into an empty store: the entries, then their history.
      const fresh = postgresWorkspace();
      const restored = await fresh.run(["restore", file]);
      expect(restored.code).toBe(0);
      expect(restored.stdout).toMatch(
        /^restored 2 memories and 9 versions of their history from .*store\.ndjson into /,
      );
      for (const [ns, key] of KEYS) {
        const expected = original[`${ns}/${key}`] ?? [];
        // The expired entry's state is a version of its history, no longer current.
        if (key === "promo") expected[0] = { ...(expected[0] as MemoryVersion), current: false };
        expect(await historyOf(fresh.run, key, ns), `${ns}/${key}`).toEqual(expected);
      }
      expect((await fresh.run(["--json", "export"])).stdout).toBe(
        (await source.run(["--json", "export"])).stdout,
      );
      // Old versions restore there, numbered after the restored ones.
      expect((await fresh.run(["restore", "tz", "2"])).code).toBe(0);
      expect(JSON.parse((await fresh.run(["--json", "get", "tz"])).stdout).content).toBe(
        "The user lives in Porto",
      );
      expect((await historyOf(fresh.run, "tz")).map((v) => [v.version, v.action])).toEqual([
        [4, "restore"],
        [3, "restore"],
        [2, "update"],
        [1, "create"],
      ]);
      expect((await fresh.run(["restore", "pet", "1"])).code).toBe(0);
      expect((await historyOf(fresh.run, "pet")).map((v) => [v.version, v.action])).toEqual([
        [3, "restore"],
        [2, "forget"],
        [1, "create"],
      ]);

      // A plain import of the backup takes its entries and skips the history lines, counted.
      const imported = postgresWorkspace();
      const result = await imported.run(["--json", "import", file]);
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual({ imported: 2, invalid: 0, historySkipped: 9 });
      expect(await keysOf(imported.run)).toEqual(["plan", "tz"]);
      expect((await historyOf(imported.run, "tz")).map((v) => v.version)).toEqual([1]);
    });

    it("refuses a bad history line, or a key's versions apart, restoring nothing (exit 2)", async () => {
      const source = postgresWorkspace();
      for (const args of [
        ["store", "a", "first"],
        ["store", "a", "second"],
        ["store", "b", "only"],
      ])
        expect((await source.run(args)).code).toBe(0);
      const file = join(tempWorkspace(), "store.ndjson");
      expect((await source.run(["backup", file])).code).toBe(0);
      const lines = readFileSync(file, "utf8").trimEnd().split("\n");
      // The entries a and b, then a's versions 1 and 2, then b's 1.
      expect(lines.map((l) => Object.keys(JSON.parse(l))[0])).toEqual([
        "id",
        "id",
        "history",
        "history",
        "history",
      ]);
      const version = (n: number) => JSON.parse(lines[n] as string).history as MemoryVersion;
      expect([version(2), version(3), version(4)].map((v) => `${v.key}@${v.version}`)).toEqual([
        "a@1",
        "a@2",
        "b@1",
      ]);

      const cases: Array<[string[], string]> = [
        [
          [
            ...lines.slice(0, 3),
            JSON.stringify({ history: { ...version(3), version: "two" } }),
            lines[4] as string,
          ],
          "line 4: history.version: expected a whole number",
        ],
        [
          [
            ...lines.slice(0, 3),
            JSON.stringify({ history: { ...version(3), action: "edit" } }),
            lines[4] as string,
          ],
          "line 4: history.action: expected one of",
        ],
        [
          [
            ...lines.slice(0, 3),
            JSON.stringify({ history: { ...version(3), version: 1 } }),
            lines[4] as string,
          ],
          'line 4: history.version: version 1 of "a" in namespace "default" is given twice',
        ],
        [
          [...lines.slice(0, 2), lines[2] as string, lines[4] as string, lines[3] as string],
          "line 5: history: the versions of one key must be on consecutive lines",
        ],
      ];
      for (const [content, message] of cases) {
        const bad = join(tempWorkspace(), "bad.ndjson");
        writeFileSync(bad, `${content.join("\n")}\n`);
        const target = postgresWorkspace();
        const result = await target.run(["restore", bad]);
        expect(result.code, message).toBe(2);
        expect(result.stderr).toContain(message);
        expect(result.stderr).toContain("1 invalid line(s), nothing restored");
        expect(await keysOf(target.run)).toEqual([]);
        expect(await historyOf(target.run, "a")).toEqual([]);
      }
    });

    it("writes NDJSON that restore imports back: refused over entries, an upsert with --force", async () => {
      const source = postgresWorkspace();
      const lines = ["a", "b", "c"].map((key) => JSON.stringify({ key, content: `the source's ${key}` }));
      expect((await source.run(["import"], lines.join("\n"))).code).toBe(0);
      const file = join(tempWorkspace(), "store.ndjson");
      const backup = await source.run(["--json", "backup", file]);
      expect(backup.code).toBe(0);
      expect(JSON.parse(backup.stdout)).toMatchObject({ path: file, entries: 3 });

      // Into an empty store: every entry as it was.
      const fresh = postgresWorkspace();
      const restored = await fresh.run(["restore", file]);
      expect(restored.code).toBe(0);
      expect(restored.stdout).toMatch(
        /^restored 3 memories and 3 versions of their history from .*store\.ndjson into /,
      );
      expect((await fresh.run(["--json", "export"])).stdout).toBe(
        (await source.run(["--json", "export"])).stdout,
      );

      // Over a store with entries: refused, then imported over it with --force.
      const target = postgresWorkspace();
      await target.run(["store", "mine", "the target's own"]);
      await target.run(["store", "a", "the target's a"]);
      const refused = await target.run(["restore", file]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain("holds 2 entries: pass --force");
      expect(await keysOf(target.run)).toEqual(["a", "mine"]);
      const forced = await target.run(["restore", file, "--force"]);
      expect(forced.code).toBe(0);
      expect(forced.stdout).toContain("imported over the 2 existing (--force)");
      expect(await keysOf(target.run)).toEqual(["a", "b", "c", "mine"]);
      expect(JSON.parse((await target.run(["--json", "get", "a"])).stdout).content).toBe("the source's a");
      // A key of the backup takes the backup's history (its live entry keeps the id it had here,
      // as an import over it does); the store's own keys keep theirs.
      const id = JSON.parse((await target.run(["--json", "get", "a"])).stdout).id as string;
      expect(await historyOf(target.run, "a")).toEqual(
        (await historyOf(source.run, "a")).map((v) => (v.current ? { ...v, id } : v)),
      );
      expect((await historyOf(target.run, "mine")).map((v) => [v.version, v.content])).toEqual([
        [1, "the target's own"],
      ]);
    });

    it("refuses a SQLite backup and a file with a bad line (exit 2), restoring nothing", async () => {
      const sqlite = tempWorkspace();
      await runInProcess(["-w", sqlite, "store", "k", "in SQLite"]);
      const sqliteFile = join(tempWorkspace(), "sqlite.db");
      expect((await runInProcess(["-w", sqlite, "backup", sqliteFile])).code).toBe(0);
      const target = postgresWorkspace();
      const wrongKind = await target.run(["restore", sqliteFile]);
      expect(wrongKind.code).toBe(2);
      expect(wrongKind.stderr).toContain("is a SQLite database, and this store is PostgreSQL");

      const bad = join(tempWorkspace(), "bad.ndjson");
      writeFileSync(
        bad,
        `${JSON.stringify({ key: "ok", content: "fine" })}\n{not json\n${JSON.stringify({ key: "", content: "x" })}\n`,
      );
      const result = await target.run(["restore", bad]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain("line 2: not valid JSON");
      expect(result.stderr).toContain("line 3:");
      expect(result.stderr).toContain("2 invalid line(s), nothing restored");
      expect(await keysOf(target.run)).toEqual([]);
    });
  });
});
