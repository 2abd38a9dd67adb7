import { describe, expect, it } from "vitest";
import { runInProcess, tempWorkspace } from "../test-support/cli-harness.js";

describe("store / get / recall / list / forget / purge", () => {
  it("stores from an argument and from stdin, and gets it back", async () => {
    const ws = tempWorkspace();
    const stored = await runInProcess(["-w", ws, "store", "editor", "The user edits code in Helix"]);
    expect(stored).toMatchObject({ code: 0, stdout: "stored editor (core, default)\n" });
    const piped = await runInProcess(["-w", ws, "store", "tz", "--category", "daily"], {
      stdin: "Lives in Lisbon\n",
    });
    expect(piped.code).toBe(0);

    const got = await runInProcess(["-w", ws, "--json", "get", "tz"]);
    expect(JSON.parse(got.stdout)).toMatchObject({
      key: "tz",
      content: "Lives in Lisbon",
      category: "daily",
    });
    const human = await runInProcess(["-w", ws, "get", "editor"]);
    expect(human.stdout).toMatch(/^key\s+editor$/m);
    expect(human.stdout.trimEnd().endsWith("The user edits code in Helix")).toBe(true);
  });

  it("stores a context the memory is found by, and recalls as of a time", async () => {
    const ws = tempWorkspace();
    const args = ["-w", ws, "store", "db", "Use PostgreSQL 16", "--context", "Project Falcon > Decisions"];
    expect((await runInProcess([...args, "--category", "daily"])).code).toBe(0);
    const found = await runInProcess(["-w", ws, "--json", "recall", "falcon", "--mode", "bm25"]);
    const [hit] = JSON.parse(found.stdout) as Array<{ key: string; context: string; score: number }>;
    expect(hit).toMatchObject({ key: "db", context: "Project Falcon > Decisions" });
    // Decades on, the daily entry keeps the floor (0.95) of the score it has today.
    const later = await runInProcess([
      "-w",
      ws,
      "--json",
      "recall",
      "falcon",
      "--mode",
      "bm25",
      "--as-of",
      "2099-01-01",
    ]);
    const [old] = JSON.parse(later.stdout) as Array<{ score: number }>;
    expect((old?.score as number) / (hit?.score as number)).toBeCloseTo(0.95, 6);
    const bad = await runInProcess(["-w", ws, "recall", "falcon", "--as-of", "someday"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--as-of");
  });

  it("refuses store without content on a terminal (exit 2)", async () => {
    const ws = tempWorkspace();
    const result = await runInProcess(["-w", ws, "store", "k"], { stdinIsTTY: true });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("give the content as an argument or on stdin");
  });

  it("get and forget of a missing key exit 3 with a hint", async () => {
    const ws = tempWorkspace();
    const got = await runInProcess(["-w", ws, "get", "nope"]);
    expect(got.code).toBe(3);
    expect(got.stderr).toContain('error: no memory with key "nope" in namespace default');
    expect(got.stderr).toContain("claw-memory list");
    const forgot = await runInProcess(["-w", ws, "--json", "forget", "nope"]);
    expect(forgot.code).toBe(3);
    expect(JSON.parse(forgot.stdout)).toEqual({
      error: { code: "NOT_FOUND", message: 'no memory with key "nope" in namespace default' },
    });
  });

  it("recalls with filters and prints a table", async () => {
    const ws = tempWorkspace();
    await runInProcess(["-w", ws, "store", "editor", "The user edits code in Helix"]);
    await runInProcess(["-w", ws, "store", "lunch", "Helix talk at lunch", "--category", "daily"]);
    await runInProcess(["-w", ws, "store", "other", "Helix in tenant b", "--namespace", "b"]);

    const core = await runInProcess(["-w", ws, "--json", "recall", "helix", "--category", "core"]);
    expect(JSON.parse(core.stdout).map((e: { key: string }) => e.key)).toEqual(["editor"]);
    const all = await runInProcess([
      "-w",
      ws,
      "--json",
      "recall",
      "helix",
      "--namespace",
      "*",
      "--limit",
      "10",
    ]);
    expect(
      JSON.parse(all.stdout)
        .map((e: { key: string }) => e.key)
        .sort(),
    ).toEqual(["editor", "lunch", "other"]);
    const table = await runInProcess(["-w", ws, "recall", "helix", "--mode", "bm25"]);
    expect(table.stdout.split("\n")[0]).toMatch(/^\s*SCORE\s+KEY\s+CATEGORY\s+UPDATED\s+CONTENT$/);
    expect(table.stdout).toContain("just now");
  });

  it("says why each memory came back with --explain, as a line and in JSON", async () => {
    const ws = tempWorkspace();
    await runInProcess(["-w", ws, "store", "editor", "The user edits code in Helix"]);
    await runInProcess(["-w", ws, "store", "lunch", "Helix talk at lunch", "--category", "daily"]);
    const human = await runInProcess([
      "-w",
      ws,
      "recall",
      "helix editor code",
      "--mode",
      "bm25",
      "--explain",
    ]);
    expect(human.code).toBe(0);
    const why = human.stdout.split("\nwhy:\n")[1] ?? "";
    const editor = why.split("\n").find((line) => line.trim().startsWith("editor")) ?? "";
    expect(editor).toMatch(/= relevance 1\.000 \(coverage 1\.00, strength 1\.00\) × recency 1\.00/);
    expect(editor).toContain("keyword #1");
    expect(editor).toContain("[helix, editor, code]");
    expect(editor).toContain("fusion bm25");
    const json = await runInProcess(["-w", ws, "--json", "recall", "helix", "--mode", "bm25", "--explain"]);
    const [first] = JSON.parse(json.stdout) as Array<{
      score: number;
      explain: { relevance: number; recency: number };
    }>;
    expect(first?.explain.relevance).toBeGreaterThan(0);
    expect((first?.explain.relevance ?? 0) * (first?.explain.recency ?? 0)).toBe(first?.score);
    const plain = await runInProcess(["-w", ws, "recall", "helix", "--mode", "bm25"]);
    expect(plain.stdout).not.toContain("why:");
    // An entry longer than a passage (100 words) says what its length left of its keyword score.
    const long = `Helix notes: ${"the editor opens files fast and ".repeat(40)}`;
    await runInProcess(["-w", ws, "store", "notes", long]);
    const both = await runInProcess(["-w", ws, "recall", "helix editor", "--mode", "bm25", "--explain"]);
    const notes = (both.stdout.split("\nwhy:\n")[1] ?? "")
      .split("\n")
      .find((l) => l.trim().startsWith("notes"));
    expect(notes).toMatch(/· 242 words \(keyword × 0\.64\)$/);
    expect(editor).not.toContain("words (keyword");
  });

  it("rejects bad option values with exit 2, naming the option", async () => {
    const ws = tempWorkspace();
    const limit = await runInProcess(["-w", ws, "recall", "x", "--limit", "0"]);
    expect(limit.code).toBe(2);
    expect(limit.stderr).toContain("--limit expects an integer ≥ 1");
    const since = await runInProcess(["-w", ws, "recall", "x", "--since", "last tuesday"]);
    expect(since.code).toBe(2);
    expect(since.stderr).toContain("--since: expected an age");
    const mode = await runInProcess(["-w", ws, "recall", "x", "--mode", "magic"]);
    expect(mode.code).toBe(2);
    const importance = await runInProcess(["-w", ws, "store", "k", "v", "--importance", "2"]);
    expect(importance.code).toBe(2);
    expect(importance.stderr).toContain("importance");
  });

  it("lists newest first, per namespace", async () => {
    const ws = tempWorkspace();
    await runInProcess(["-w", ws, "store", "a", "first"], { now: new Date("2026-01-01T00:00:00Z") });
    await runInProcess(["-w", ws, "store", "b", "second"]);
    const listed = await runInProcess(["-w", ws, "--json", "list"]);
    expect(JSON.parse(listed.stdout).map((e: { key: string }) => e.key)).toEqual(["b", "a"]);
    const other = await runInProcess(["-w", ws, "--json", "list", "--namespace", "none-here"]);
    expect(JSON.parse(other.stdout)).toEqual([]);
  });

  it("forgets a memory", async () => {
    const ws = tempWorkspace();
    await runInProcess(["-w", ws, "store", "a", "first"]);
    expect((await runInProcess(["-w", ws, "forget", "a"])).stdout).toBe("forgot a\n");
    expect((await runInProcess(["-w", ws, "get", "a"])).code).toBe(3);
  });

  it("purge asks on a terminal, needs --yes otherwise, and needs exactly one target", async () => {
    const ws = tempWorkspace();
    await runInProcess(["-w", ws, "store", "a", "x", "--namespace", "t"]);
    await runInProcess(["-w", ws, "store", "b", "y", "--namespace", "t"]);

    const noYes = await runInProcess(["-w", ws, "purge", "--namespace", "t"]);
    expect(noYes.code).toBe(2);
    expect(noYes.stderr).toContain("pass --yes to confirm");
    const both = await runInProcess(["-w", ws, "purge", "--namespace", "t", "--session", "s", "--yes"]);
    expect(both.code).toBe(2);

    const questions: string[] = [];
    const declined = await runInProcess(["-w", ws, "purge", "--namespace", "t"], {
      stdinIsTTY: true,
      confirm: async (q) => {
        questions.push(q);
        return false;
      },
    });
    expect(declined.stdout).toBe("cancelled\n");
    expect(questions).toEqual(["Delete every memory of the namespace t?"]);

    const purged = await runInProcess(["-w", ws, "--json", "purge", "--namespace", "t", "--yes"]);
    expect(JSON.parse(purged.stdout)).toEqual({ purged: 2 });
  });
});

describe("store --check-conflicts", () => {
  it("supersedes the memory the new one contradicts", async () => {
    const ws = tempWorkspace();
    await runInProcess(["-w", ws, "store", "coffee", "I like coffee"]);
    const result = await runInProcess([
      "-w",
      ws,
      "store",
      "coffee_now",
      "I don't like coffee anymore",
      "--check-conflicts",
    ]);
    expect(result.stdout).toBe("stored coffee_now (core, default)\nsuperseded coffee\n");
    const old = JSON.parse((await runInProcess(["-w", ws, "--json", "get", "coffee"])).stdout);
    expect(old.supersededBy).toBe("coffee_now");
    const hits = JSON.parse((await runInProcess(["-w", ws, "--json", "recall", "coffee"])).stdout);
    expect(hits.map((e: { key: string }) => e.key)).toEqual(["coffee_now"]);
  });
});

describe("a store that cannot open", () => {
  it("fails the command (exit 1) instead of writing into a NoneMemory", async () => {
    const { writeFileSync } = await import("node:fs");
    const { join } = await import("node:path");
    const file = join(tempWorkspace(), "not-a-folder");
    writeFileSync(file, "x");
    // The default workspace (from the environment) is created on first use, and here cannot be.
    const result = await runInProcess(["--json", "store", "k", "v"], {
      env: { CLAW_MEMORY_WORKSPACE: join(file, "ws") },
    });
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout).error.code).toBe("STORAGE");
  });
});
