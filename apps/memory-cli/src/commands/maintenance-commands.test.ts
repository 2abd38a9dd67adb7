import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { TextGenerator } from "@claw/memory-api";
import { createHashingEmbeddingProvider } from "@claw/memory-core";
import { describe, expect, it } from "vitest";
import { runInProcess, tempWorkspace } from "../test-support/cli-harness.js";

describe("maintenance commands", () => {
  it("status reports the store, in JSON and as aligned text", async () => {
    const ws = tempWorkspace();
    await runInProcess(["-w", ws, "store", "a", "alpha"]);
    const json = JSON.parse((await runInProcess(["-w", ws, "--json", "status"])).stdout);
    expect(json).toMatchObject({
      workspace: ws,
      backend: "sqlite",
      entries: 1,
      namespaces: 1,
      fts: true,
      ftsEngine: "sqlite fts5",
    });
    const text = (await runInProcess(["-w", ws, "status"])).stdout;
    expect(text).toMatch(/^entries\s+1$/m);
    expect(text.split("\n")).toContain("full-text        sqlite fts5");
    expect(text).toMatch(/^embeddings\s+none \(keyword-only/m);
    expect(json.refusedFiles).toEqual([]);
  });

  it("status lists memory files refused for where their links lead", async () => {
    const ws = tempWorkspace();
    mkdirSync(join(ws, "memory"), { recursive: true });
    writeFileSync(join(ws, "claw-memory.toml"), '[memory]\nsearch_mode = "bm25"\n');
    symlinkSync(join(ws, "claw-memory.toml"), join(ws, "memory/notes.md"));
    const json = JSON.parse((await runInProcess(["-w", ws, "--json", "status"])).stdout);
    expect(json.refusedFiles).toEqual([
      { path: "memory/notes.md", reason: "it is a link to claw-memory.toml, which is not a memory file" },
    ]);
    const text = (await runInProcess(["-w", ws, "status"])).stdout;
    expect(text).toContain("refused: memory/notes.md: it is a link to claw-memory.toml");
  });

  it("backfill and reindex embed with the provider, reporting progress", async () => {
    const ws = tempWorkspace();
    const stored = Array.from({ length: 30 }, (_, i) =>
      JSON.stringify({ key: `k${i}`, content: `note ${i}` }),
    );
    await runInProcess(["-w", ws, "import"], { stdin: stored.join("\n") });
    const embeddings = createHashingEmbeddingProvider({ dimensions: 32 });

    const backfill = await runInProcess(["-w", ws, "--json", "backfill", "--batch-size", "10"], {
      embeddings,
    });
    expect(JSON.parse(backfill.stdout)).toEqual({ embedded: 30 });
    expect(backfill.stderr).toContain("backfill: 100% (30/30)");
    const status = JSON.parse((await runInProcess(["-w", ws, "--json", "status"], { embeddings })).stdout);
    expect(status.missingEmbeddings).toBe(0);

    const reindex = await runInProcess(["-w", ws, "--json", "reindex"], { embeddings });
    expect(JSON.parse(reindex.stdout)).toEqual({ reindexed: 30 });
  });

  it("hygiene runs when due, then waits for the interval unless --force", async () => {
    const ws = tempWorkspace();
    await runInProcess(["-w", ws, "import"], {
      stdin: JSON.stringify({
        key: "old",
        content: "old chat",
        category: "conversation",
        updatedAt: "2020-01-01T00:00:00Z",
      }),
    });
    // The import's start-up ran hygiene (on an empty store) through the lifecycle plugin, so the
    // expired entry it then imported waits for the next run.
    const notDue = await runInProcess(["-w", ws, "hygiene"]);
    expect(notDue.stdout).toContain("hygiene is not due yet");
    expect((await runInProcess(["-w", ws, "get", "old"])).code).toBe(0);
    const forced = await runInProcess(["-w", ws, "--json", "hygiene", "--force"]);
    expect(JSON.parse(forced.stdout)).toMatchObject({ ran: true, deletedKeys: ["default/old"] });
  });

  it("hygiene also deletes entries whose expiresAt has passed, and says how many", async () => {
    const ws = tempWorkspace();
    const lines = [
      { key: "code", content: "door code 4711", expiresAt: "2020-01-01T00:00:00Z" },
      { key: "keep", content: "the door is green" },
    ];
    await runInProcess(["-w", ws, "import"], { stdin: lines.map((l) => JSON.stringify(l)).join("\n") });
    const forced = await runInProcess(["-w", ws, "hygiene", "--force"]);
    expect(forced.stdout).toContain("; 1 expired deleted");
    const history = JSON.parse((await runInProcess(["-w", ws, "--json", "history", "code"])).stdout);
    expect(history.map((v: { action: string; actor: string }) => [v.action, v.actor])).toEqual([
      ["expire", "hygiene"],
      ["create", "cli"],
    ]);
    expect((await runInProcess(["-w", ws, "get", "keep"])).code).toBe(0);
  });

  it("snapshot writes MEMORY_SNAPSHOT.md and hydrate restores from it", async () => {
    const ws = tempWorkspace();
    await runInProcess(["-w", ws, "store", "editor", "The user edits code in Helix"]);
    const snap = await runInProcess(["-w", ws, "snapshot"]);
    expect(snap.stdout).toBe(`wrote 1 core memories to ${join(ws, "MEMORY_SNAPSHOT.md")}\n`);
    expect(readFileSync(join(ws, "MEMORY_SNAPSHOT.md"), "utf8")).toContain("The user edits code in Helix");

    await runInProcess(["-w", ws, "forget", "editor"]);
    const hydrated = await runInProcess(["-w", ws, "--json", "hydrate"]);
    expect(JSON.parse(hydrated.stdout)).toEqual({ hydrated: 1 });
    expect((await runInProcess(["-w", ws, "get", "editor"])).code).toBe(0);
  });

  it("a lost brain.db is hydrated at start-up by the lifecycle plugin", async () => {
    const ws = tempWorkspace();
    await runInProcess(["-w", ws, "store", "editor", "The user edits code in Helix"]);
    await runInProcess(["-w", ws, "snapshot"]);
    for (const f of ["brain.db", "brain.db-wal", "brain.db-shm"]) rmSync(join(ws, f), { force: true });
    const got = await runInProcess(["-w", ws, "--json", "get", "editor"]);
    expect(JSON.parse(got.stdout).content).toBe("The user edits code in Helix");
  });
});

describe("lifecycle commands", () => {
  it("consolidate saves a daily note and promotes an important message", async () => {
    const ws = tempWorkspace();
    const result = await runInProcess([
      "-w",
      ws,
      "--json",
      "consolidate",
      "Important: always run the tests before pushing",
      "--assistant",
      "Will do.",
    ]);
    const parsed = JSON.parse(result.stdout);
    expect(parsed.daily.key).toMatch(/^daily_\d{4}-\d{2}-\d{2}_/);
    expect(parsed.core.content).toBe("Important: always run the tests before pushing");
    const skipped = await runInProcess(["-w", ws, "consolidate", "[heartbeat] ok"]);
    expect(skipped.stdout).toBe("nothing saved: the autosave filter rejected the message\n");
  });

  it("curate applies validated proposals, and --dry-run changes nothing", async () => {
    const ws = tempWorkspace();
    const entries = Array.from({ length: 10 }, (_, i) =>
      JSON.stringify({ key: `d${i}`, content: `daily ${i}`, category: "daily" }),
    );
    await runInProcess(["-w", ws, "import"], { stdin: entries.join("\n") });
    const generator: TextGenerator = { generate: async () => '{"delete":["d1","d2"],"merge":[]}' };

    const dry = await runInProcess(["-w", ws, "curate", "--dry-run"], { generator });
    expect(dry.stdout).toContain("dry run: 10 → 9 memories");
    expect(dry.stdout).toContain("would delete d1");
    expect(dry.stdout).toContain("refused delete d2: over the deletion cap");

    const applied = await runInProcess(["-w", ws, "--json", "curate", "--max-deletions", "2"], { generator });
    expect(JSON.parse(applied.stdout)).toMatchObject({ deleted: ["d1", "d2"], totalAfter: 8 });
  });

  it("curate without a generator says which key to set (exit 2)", async () => {
    const ws = tempWorkspace();
    const result = await runInProcess(["-w", ws, "curate"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("OPENAI_API_KEY");
  });
});

describe("config and init", () => {
  it("init writes a commented claw-memory.toml that loads, and refuses to overwrite it", async () => {
    const ws = join(tempWorkspace(), "new");
    const init = await runInProcess(["-w", ws, "init"]);
    expect(init.code).toBe(0);
    expect(existsSync(join(ws, "claw-memory.toml"))).toBe(true);
    const again = await runInProcess(["-w", ws, "init"]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain("--force");
    const config = await runInProcess(["-w", ws, "--json", "config"]);
    expect(JSON.parse(config.stdout).memory.conflictThreshold).toBe(0.6);
  });

  it("config prints the effective config with keys from the environment masked", async () => {
    const ws = tempWorkspace();
    const result = await runInProcess(["-w", ws, "config"], {
      env: { OPENAI_API_KEY: "sk-secret-value-123" },
    });
    expect(result.stdout).toContain("[providers.openai]");
    expect(result.stdout).toContain('api_key = "sk-…(masked)"');
    expect(result.stdout).not.toContain("secret-value");
    expect(result.stdout).toMatch(/^conflict_threshold = 0.6$/m);
  });

  it("config masks the password of a PostgreSQL connection string, from the file or the environment", async () => {
    const ws = tempWorkspace();
    writeFileSync(
      join(ws, "claw-memory.toml"),
      '[postgres]\nurl = "postgres://claw:file-pass-42@db.local:5432/claw"\n',
    );
    const fromFile = await runInProcess(["-w", ws, "config"]);
    expect(fromFile.stdout).toContain('url = "postgres://claw:***@db.local:5432/claw"');
    expect(fromFile.stdout).not.toContain("file-pass-42");
    const fromEnv = await runInProcess(["-w", ws, "--json", "config"], {
      env: { CLAW_MEMORY_PG_URL: "postgres://admin:env-pass-7@127.0.0.1/claw" },
    });
    expect(JSON.parse(fromEnv.stdout).postgres.url).toBe("postgres://admin:***@127.0.0.1/claw");
    expect(fromEnv.stdout).not.toContain("env-pass-7");
  });

  it("a broken config file is an error naming the key", async () => {
    const ws = tempWorkspace();
    const file = join(ws, "bad.toml");
    const { writeFileSync, chmodSync } = await import("node:fs");
    writeFileSync(file, "[memory]\nconflict_threshold = 7\n");
    chmodSync(file, 0o600);
    const result = await runInProcess(["-w", ws, "-c", file, "status"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("memory.conflict_threshold");
  });
});

describe("context", () => {
  it("prints the stable core block and the recall block, without repeating core memories", async () => {
    const ws = tempWorkspace();
    await runInProcess(["-w", ws, "store", "tz", "The user lives in Lisbon"]);
    await runInProcess(["-w", ws, "store", "standup", "Standup moved to 9:30", "--category", "daily"]);
    const human = await runInProcess(["-w", ws, "context", "when is the standup in Lisbon?"]);
    expect(human.stdout).toMatch(
      /^## What you remember about the user\n- The user lives in Lisbon\n\n\[memory context\]\n- \(daily \d{4}-\d{2}-\d{2}\) Standup moved to 9:30\n$/,
    );
    const json = JSON.parse((await runInProcess(["-w", ws, "--json", "context", "Lisbon standup"])).stdout);
    expect(json.stable.keys).toEqual(["tz"]);
    expect(json.recall.keys).toEqual(["standup"]);
    expect(json.stable.hash).toMatch(/^[0-9a-f]{16}$/);
  });
});
