import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runInProcess, tempWorkspace } from "../test-support/cli-harness.js";

/** A workspace holding `keys` (content "<ws name>'s <key>"), stored through the CLI. */
async function workspaceWith(keys: readonly string[], label: string): Promise<string> {
  const ws = tempWorkspace();
  const lines = keys.map((key) => JSON.stringify({ key, content: `${label}'s ${key}` })).join("\n");
  if (keys.length > 0) expect((await runInProcess(["-w", ws, "import"], { stdin: lines })).code).toBe(0);
  return ws;
}

async function keysOf(ws: string): Promise<string[]> {
  const result = await runInProcess(["-w", ws, "--json", "export"]);
  expect(result.code).toBe(0);
  return result.stdout
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => (JSON.parse(l) as { key: string }).key)
    .sort();
}

async function backupOf(ws: string): Promise<string> {
  const file = join(tempWorkspace(), "backup.db");
  const result = await runInProcess(["-w", ws, "--json", "backup", file]);
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: "" });
  return file;
}

describe("claw-memory backup", () => {
  it("prints the path, the entries and the bytes, with no progress off a terminal", async () => {
    const ws = await workspaceWith(["a", "b", "c"], "source");
    const file = join(tempWorkspace(), "copy.db");
    const text = await runInProcess(["-w", ws, "backup", file]);
    expect(text.code).toBe(0);
    expect(text.stderr).toBe("");
    expect(text.stdout).toMatch(new RegExp(`^backed up 3 memories to ${file} \\(\\d+ bytes\\)\n$`));

    const json = await runInProcess(["-w", ws, "--json", "backup", file]);
    const report = JSON.parse(json.stdout) as { path: string; entries: number; bytes: number };
    expect(report).toMatchObject({ path: file, entries: 3 });
    expect(readFileSync(file).subarray(0, 16).toString("latin1")).toBe("SQLite format 3\0");
    expect(readFileSync(file).length).toBe(report.bytes);
  });

  it("draws its progress on stderr when stderr is a terminal", async () => {
    const ws = await workspaceWith(["a"], "source");
    const result = await runInProcess(["-w", ws, "backup", join(tempWorkspace(), "b.db")], {
      stderrIsTTY: true,
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/backup .*100% (\d+)\/\1\n$/);
  });

  it("refuses the live database as FILE (exit 2, naming path)", async () => {
    const ws = await workspaceWith(["a"], "source");
    const result = await runInProcess(["-w", ws, "backup", join(ws, "brain.db")]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("live database");
    expect(await keysOf(ws)).toEqual(["a"]);
  });
});

describe("claw-memory restore FILE", () => {
  it("restores a backup into a fresh workspace: the same entries come back", async () => {
    const source = await workspaceWith(["a", "b"], "source");
    const file = await backupOf(source);
    const fresh = tempWorkspace();
    const result = await runInProcess(["-w", fresh, "restore", file]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`restored 2 memories from ${file} into ${join(fresh, "brain.db")}\n`);
    const exported = await runInProcess(["-w", fresh, "--json", "export"]);
    expect(exported.stdout).toBe((await runInProcess(["-w", source, "--json", "export"])).stdout);
  });

  it("refuses a store that holds entries without --force (exit 1, CONFLICT), changing nothing", async () => {
    const file = await backupOf(await workspaceWith(["a"], "backup"));
    const ws = await workspaceWith(["mine"], "target");
    const result = await runInProcess(["-w", ws, "restore", file]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("holds 1 entry: pass --force");
    expect(await keysOf(ws)).toEqual(["mine"]);
    expect(existsSync(join(ws, "brain.db.before-restore"))).toBe(false);
  });

  it("with --force, keeps the replaced store as brain.db.before-restore", async () => {
    const file = await backupOf(await workspaceWith(["a", "b"], "backup"));
    const ws = await workspaceWith(["mine"], "target");
    const result = await runInProcess(["-w", ws, "--json", "restore", file, "--force"]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      file,
      path: join(ws, "brain.db"),
      entries: 2,
      replaced: { path: join(ws, "brain.db.before-restore"), entries: 1 },
    });
    expect(await keysOf(ws)).toEqual(["a", "b"]);
    // The kept file is a whole store on its own: as another workspace's database, it holds the old entries.
    const other = tempWorkspace();
    copyFileSync(join(ws, "brain.db.before-restore"), join(other, "brain.db"));
    expect(await keysOf(other)).toEqual(["mine"]);
  });

  it("refuses a file that is not a store (exit 2, naming file), changing nothing", async () => {
    const ws = await workspaceWith(["mine"], "target");
    const file = join(tempWorkspace(), "notes.txt");
    writeFileSync(file, "some notes, not a backup\n");
    const result = await runInProcess(["-w", ws, "restore", file, "--force"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("is not a claw-memory SQLite store");
    expect(await keysOf(ws)).toEqual(["mine"]);
    expect(readdirSync(ws).filter((f) => f.startsWith("brain.db"))).toEqual(["brain.db"]);
  });

  it("refuses NDJSON (a PostgreSQL backup, an export) pointing at import, which takes its entries", async () => {
    const ws = await workspaceWith(["mine"], "target");
    const file = join(tempWorkspace(), "postgres-backup.ndjson");
    const version = { version: 1, at: "2024-05-01T10:00:00.000Z", action: "create", actor: "cli" };
    const entry = {
      id: "id-x",
      key: "x",
      content: "from PostgreSQL",
      namespace: "default",
      category: "core",
    };
    writeFileSync(
      file,
      `${JSON.stringify(entry)}\n${JSON.stringify({ history: { ...version, current: true, deleted: false, ...entry } })}\n`,
    );
    const result = await runInProcess(["-w", ws, "restore", file, "--force"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("is JSON (the NDJSON of a PostgreSQL backup, or an export)");
    expect(result.stderr).toContain(`\`claw-memory import ${file}\``);
    expect(await keysOf(ws)).toEqual(["mine"]);
    expect(readdirSync(ws).filter((f) => f.startsWith("brain.db"))).toEqual(["brain.db"]);

    // As it says: import takes the entries and skips the history line, counted.
    const imported = await runInProcess(["-w", ws, "--json", "import", file]);
    expect(imported.code).toBe(0);
    expect(JSON.parse(imported.stdout)).toEqual({ imported: 1, invalid: 0, historySkipped: 1 });
    expect(await keysOf(ws)).toEqual(["mine", "x"]);
    const text = await runInProcess(["-w", ws, "import", file]);
    expect(text.stdout).toContain("imported 1 memories, skipped 1 history line(s)");
  });

  it("keeps `restore <key> <version>` and refuses options of the other form (exit 2)", async () => {
    const ws = await workspaceWith(["door"], "first");
    await runInProcess(["-w", ws, "store", "door", "second"]);
    const restored = await runInProcess(["-w", ws, "restore", "door", "1"]);
    expect(restored.code).toBe(0);
    expect(restored.stdout).toContain("restored door to version 1");
    expect((await runInProcess(["-w", ws, "restore", "door", "1", "--force"])).code).toBe(2);
    const file = await backupOf(ws);
    expect((await runInProcess(["-w", ws, "restore", file, "--namespace", "x"])).code).toBe(2);
    const help = await runInProcess(["restore", "--help"]);
    expect(help.stdout).toContain("restore FILE [--force]");
    expect(help.stdout).toContain("restore <key> <version>");
  });
});
