import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { MemoryVersion } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { runInProcess, tempWorkspace } from "../test-support/cli-harness.js";

const HOUR_MS = 3_600_000;

async function historyOf(ws: string, key: string, ...args: string[]): Promise<MemoryVersion[]> {
  const result = await runInProcess(["-w", ws, "--json", "history", key, ...args]);
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: "" });
  return JSON.parse(result.stdout) as MemoryVersion[];
}

/** A memory stored, stored again with new content, then forgotten: versions 1, 2 and 3. */
async function forgottenAfterTwoWrites(): Promise<string> {
  const ws = tempWorkspace();
  expect((await runInProcess(["-w", ws, "store", "door", "The door code is 1234"])).code).toBe(0);
  expect((await runInProcess(["-w", ws, "store", "door", "The door code is 5678"])).code).toBe(0);
  expect((await runInProcess(["-w", ws, "forget", "door"])).code).toBe(0);
  return ws;
}

describe("history", () => {
  it("lists create, update and forget by the cli, newest first, in JSON and one line per version", async () => {
    const ws = await forgottenAfterTwoWrites();
    const versions = await historyOf(ws, "door");
    expect(
      versions.map(({ version, action, actor, current, deleted, content }) => ({
        version,
        action,
        actor,
        current,
        deleted,
        content,
      })),
    ).toEqual([
      {
        version: 3,
        action: "forget",
        actor: "cli",
        current: false,
        deleted: true,
        content: "The door code is 5678",
      },
      {
        version: 2,
        action: "update",
        actor: "cli",
        current: false,
        deleted: false,
        content: "The door code is 5678",
      },
      {
        version: 1,
        action: "create",
        actor: "cli",
        current: false,
        deleted: false,
        content: "The door code is 1234",
      },
    ]);
    expect(versions.every((v) => v.key === "door" && v.namespace === "default")).toBe(true);

    const [v3, v2, v1] = versions.map((v) => v.at);
    const human = await runInProcess(["-w", ws, "history", "door"]);
    expect(human.code).toBe(0);
    const blank = " ".repeat("(deleted)".length);
    expect(human.stdout).toBe(
      [
        `v3  ${v3}  forget  by cli  (deleted)  The door code is 5678`,
        `v2  ${v2}  update  by cli  ${blank}  The door code is 5678`,
        `v1  ${v1}  create  by cli  ${blank}  The door code is 1234`,
        "",
      ].join("\n"),
    );

    const newest = await historyOf(ws, "door", "--limit", "1");
    expect(newest.map((v) => v.version)).toEqual([3]);
    const badLimit = await runInProcess(["-w", ws, "history", "door", "--limit", "0"]);
    expect(badLimit.code).toBe(2);
    expect(badLimit.stderr).toContain("--limit expects an integer ≥ 1");
  });

  it("marks the current version, and cuts long content to the terminal width", async () => {
    const ws = tempWorkspace();
    const long = `The relay runbook: ${"check the fuses, ".repeat(12)}then restart`;
    await runInProcess(["-w", ws, "store", "runbook", long]);
    await runInProcess(["-w", ws, "store", "runbook", "Short runbook"]);
    const [v2, v1] = (await historyOf(ws, "runbook")).map((v) => v.at);
    const lines = (await runInProcess(["-w", ws, "history", "runbook"])).stdout.trimEnd().split("\n");
    expect(lines[0]).toBe(`v2  ${v2}  update  by cli  (current)  Short runbook`);
    // The harness's terminal is 100 columns wide: the content takes what is left, cut with "…".
    const prefix = `v1  ${v1}  create  by cli  ${" ".repeat("(current)".length)}  `;
    expect(lines[1]).toBe(`${prefix}${long.slice(0, 100 - prefix.length - 1)}…`);
    expect(Array.from(lines[1] as string).length).toBe(100);
  });

  it("a key with no history exits 3 like get, with the same hint; --namespace reads another namespace", async () => {
    const ws = tempWorkspace();
    await runInProcess(["-w", ws, "store", "plan", "Ship on Friday", "--namespace", "team"]);

    const missing = await runInProcess(["-w", ws, "--json", "history", "plan"]);
    expect(missing.code).toBe(3);
    expect(JSON.parse(missing.stdout)).toEqual({
      error: { code: "NOT_FOUND", message: 'no history for key "plan" in namespace default' },
    });
    const human = await runInProcess(["-w", ws, "history", "nope"]);
    expect(human.code).toBe(3);
    expect(human.stderr).toContain('error: no history for key "nope" in namespace default');
    expect(human.stderr).toContain("claw-memory list");

    const team = await historyOf(ws, "plan", "--namespace", "team");
    expect(team.map((v) => [v.version, v.action, v.actor, v.namespace, v.current])).toEqual([
      [1, "create", "cli", "team", true],
    ]);
  });
});

describe("restore", () => {
  it("brings back version 1 after a forget, as a new restore version by the cli", async () => {
    const ws = await forgottenAfterTwoWrites();
    const restored = await runInProcess(["-w", ws, "restore", "door", "1"]);
    expect(restored).toMatchObject({ code: 0, stdout: "restored door to version 1 (core, default)\n" });

    const got = await runInProcess(["-w", ws, "--json", "get", "door"]);
    expect(got.code).toBe(0);
    expect(JSON.parse(got.stdout)).toMatchObject({ key: "door", content: "The door code is 1234" });
    const versions = await historyOf(ws, "door");
    expect(versions.map((v) => [v.version, v.action, v.actor, v.current])).toEqual([
      [4, "restore", "cli", true],
      [3, "forget", "cli", false],
      [2, "update", "cli", false],
      [1, "create", "cli", false],
    ]);

    // --json prints the restored entry, as store does.
    const again = await runInProcess(["-w", ws, "--json", "restore", "door", "2"]);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({
      key: "door",
      namespace: "default",
      category: "core",
      content: "The door code is 5678",
    });
  });

  it("restores in another namespace with --namespace", async () => {
    const ws = tempWorkspace();
    await runInProcess(["-w", ws, "store", "plan", "Ship on Friday", "--namespace", "team"]);
    await runInProcess(["-w", ws, "store", "plan", "Ship on Monday", "--namespace", "team"]);
    expect((await runInProcess(["-w", ws, "restore", "plan", "1"])).code).toBe(3);
    const restored = await runInProcess(["-w", ws, "restore", "plan", "1", "--namespace", "team"]);
    expect(restored.stdout).toBe("restored plan to version 1 (core, team)\n");
    const got = await runInProcess(["-w", ws, "--json", "get", "plan", "--namespace", "team"]);
    expect(JSON.parse(got.stdout).content).toBe("Ship on Friday");
  });

  it("refuses a tombstone and a version that is not a whole number ≥ 1 (exit 2, naming version)", async () => {
    const ws = await forgottenAfterTwoWrites();
    const tombstone = await runInProcess(["-w", ws, "--json", "restore", "door", "3"]);
    expect(tombstone.code).toBe(2);
    expect(JSON.parse(tombstone.stdout)).toEqual({
      error: {
        code: "INVALID_INPUT",
        message: "version: version 3 records a deletion (forget); restore the version before it",
      },
    });
    for (const [version, message] of [
      ["abc", 'version: expected a whole number ≥ 1, got "abc"'],
      ["1.5", 'version: expected a whole number ≥ 1, got "1.5"'],
      ["0", "version: expected a whole number ≥ 1, got 0"],
    ] as const) {
      const result = await runInProcess(["-w", ws, "--json", "restore", "door", version]);
      expect(result.code, version).toBe(2);
      expect(JSON.parse(result.stdout), version).toEqual({ error: { code: "INVALID_INPUT", message } });
      expect(result.stderr, version).toBe(`error: ${message}\n`);
    }
    // Nothing was restored.
    expect((await runInProcess(["-w", ws, "get", "door"])).code).toBe(3);
    expect((await historyOf(ws, "door")).length).toBe(3);
  });

  it("an unknown key, or a version that is not kept, exits 3", async () => {
    const ws = await forgottenAfterTwoWrites();
    const unknown = await runInProcess(["-w", ws, "--json", "restore", "nope", "1"]);
    expect(unknown.code).toBe(3);
    expect(JSON.parse(unknown.stdout)).toEqual({
      error: { code: "NOT_FOUND", message: 'no version 1 of "nope" is kept in namespace "default"' },
    });
    const later = await runInProcess(["-w", ws, "restore", "door", "9"]);
    expect(later.code).toBe(3);
    expect(later.stderr).toContain('error: no version 9 of "door" is kept in namespace "default"');
  });
});

describe("store --ttl / --expires-at", () => {
  it("stores an expiry an hour ahead with --ttl 1h, shown by get --json", async () => {
    const ws = tempWorkspace();
    const before = Date.now();
    const stored = await runInProcess([
      "-w",
      ws,
      "--json",
      "store",
      "parking",
      "Level 3, spot 42",
      "--ttl",
      "1h",
    ]);
    const after = Date.now();
    expect(stored.code).toBe(0);
    const got = JSON.parse((await runInProcess(["-w", ws, "--json", "get", "parking"])).stdout);
    expect(got.expiresAt).toBe(JSON.parse(stored.stdout).expiresAt);
    const expiresAt = Date.parse(got.expiresAt);
    expect(expiresAt).toBeGreaterThan(before);
    expect(expiresAt).toBeGreaterThanOrEqual(before + HOUR_MS);
    expect(expiresAt).toBeLessThanOrEqual(after + HOUR_MS);
    expect((await historyOf(ws, "parking"))[0]?.expiresAt).toBe(got.expiresAt);
  });

  it("shows expiresAt in get, list and recall, human and JSON, only for entries that expire", async () => {
    const ws = tempWorkspace();
    const at = "2099-01-01T00:00:00.000Z";
    await runInProcess([
      "-w",
      ws,
      "store",
      "offer",
      "Spring offer code",
      "--expires-at",
      "2099-01-01T00:00:00Z",
    ]);
    await runInProcess(["-w", ws, "store", "plain", "Spring cleaning day"]);
    // A week before it expires, as the terminal shows it.
    const now = new Date(Date.parse(at) - 7 * 86_400_000);

    const got = await runInProcess(["-w", ws, "get", "offer"], { now });
    expect(got.stdout.split("\n")).toContain(`${"expires".padEnd("importance".length)}  ${at} (in 1w)`);
    expect((await runInProcess(["-w", ws, "get", "plain"])).stdout).not.toMatch(/^expires/m);
    expect(JSON.parse((await runInProcess(["-w", ws, "--json", "get", "offer"])).stdout).expiresAt).toBe(at);
    expect(JSON.parse((await runInProcess(["-w", ws, "--json", "get", "plain"])).stdout)).not.toHaveProperty(
      "expiresAt",
    );

    const listed = await runInProcess(["-w", ws, "--json", "list"]);
    expect(
      JSON.parse(listed.stdout)
        .map((e: { key: string; expiresAt?: string }) => [e.key, e.expiresAt])
        .sort(),
    ).toEqual([
      ["offer", at],
      ["plain", undefined],
    ]);
    const table = (await runInProcess(["-w", ws, "list"], { now })).stdout.split("\n");
    expect(table[0]).toMatch(/^KEY\s+CATEGORY\s+UPDATED\s+EXPIRES\s+CONTENT$/);
    expect(table).toContainEqual(
      expect.stringMatching(/^offer\s+core\s+\S+ ago\s+in 1w\s+Spring offer code$/),
    );
    expect(table).toContainEqual(expect.stringMatching(/^plain\s+core\s+\S+ ago\s+Spring cleaning day$/));

    const hits = await runInProcess(["-w", ws, "--json", "recall", "offer", "--mode", "bm25"]);
    expect(
      JSON.parse(hits.stdout).map((e: { key: string; expiresAt?: string }) => [e.key, e.expiresAt]),
    ).toEqual([["offer", at]]);
    const recalled = await runInProcess(["-w", ws, "recall", "offer", "--mode", "bm25"], { now });
    expect(recalled.stdout.split("\n")[0]).toMatch(/^SCORE\s+KEY\s+CATEGORY\s+UPDATED\s+EXPIRES\s+CONTENT$/);
    expect(recalled.stdout.split("\n")[1]).toMatch(/\s+in 1w\s+Spring offer code$/);
  });

  it("reports a bad --ttl or --expires-at as invalid input naming the field (exit 2)", async () => {
    const ws = tempWorkspace();
    const cases: Array<[string[], string]> = [
      [["--ttl", "soon"], "ttl: "],
      [["--ttl", "1d", "--expires-at", "2099-01-01T00:00:00Z"], "ttl: "],
      [["--expires-at", "2001-01-01T00:00:00Z"], "expiresAt: is not in the future"],
      [["--expires-at", "tomorrow"], "expiresAt: "],
    ];
    for (const [args, message] of cases) {
      const result = await runInProcess(["-w", ws, "--json", "store", "k", "v", ...args]);
      expect(result.code, args.join(" ")).toBe(2);
      const { error } = JSON.parse(result.stdout);
      expect(error.code, args.join(" ")).toBe("INVALID_INPUT");
      expect(error.message.startsWith(message), `${args.join(" ")}: ${error.message}`).toBe(true);
    }
    expect((await runInProcess(["-w", ws, "get", "k"])).code).toBe(3);
  });
});

describe("purge-expired", () => {
  it("deletes an imported entry whose expiry has passed, reporting 1, recorded as expire by the cli", async () => {
    const ws = tempWorkspace();
    const file = join(ws, "offers.jsonl");
    writeFileSync(
      file,
      [
        JSON.stringify({ key: "stale", content: "An old offer", expiresAt: "2020-01-01T00:00:00.000Z" }),
        JSON.stringify({ key: "fresh", content: "A current offer" }),
      ].join("\n"),
    );
    const imported = await runInProcess(["-w", ws, "--json", "import", file]);
    expect(JSON.parse(imported.stdout)).toEqual({ imported: 2, invalid: 0 });
    // Expired already: never returned, though still stored until the purge.
    expect((await runInProcess(["-w", ws, "get", "stale"])).code).toBe(3);
    expect((await historyOf(ws, "stale")).map((v) => [v.action, v.actor, v.current])).toEqual([
      ["create", "cli", true],
    ]);

    const purged = await runInProcess(["-w", ws, "--json", "purge-expired"]);
    expect(purged.code).toBe(0);
    expect(JSON.parse(purged.stdout)).toEqual({ removed: 1 });
    const versions = await historyOf(ws, "stale");
    expect(versions.map((v) => [v.version, v.action, v.actor, v.deleted, v.current])).toEqual([
      [2, "expire", "cli", true, false],
      [1, "create", "cli", false, false],
    ]);
    expect(versions[0]?.content).toBe("An old offer");

    const again = await runInProcess(["-w", ws, "purge-expired"]);
    expect(again).toMatchObject({ code: 0, stdout: "deleted 0 expired memories\n" });
    const listed = await runInProcess(["-w", ws, "--json", "list"]);
    expect(JSON.parse(listed.stdout).map((e: { key: string }) => e.key)).toEqual(["fresh"]);
  });
});

describe("help", () => {
  it("lists history, restore (both forms) and purge-expired, and documents --ttl and --expires-at", async () => {
    const help = await runInProcess(["--help"]);
    expect(help.stdout).toMatch(/^ {2}history \[options\] <key> +every kept version of a memory/m);
    expect(help.stdout).toMatch(
      /^ {2}restore \[options\] <file\|key> \[version\] +restore the store from a backup .*make an earlier version/m,
    );
    expect(help.stdout).toMatch(/^ {2}purge-expired +delete the memories whose expiry/m);
    const store = await runInProcess(["store", "--help"]);
    expect(store.stdout).toMatch(/^ {2}--ttl <age> +expire after this long: 30m, 12h, 7d, 2w, 1y/m);
    expect(store.stdout).toMatch(/^ {2}--expires-at <time> +expire at this time \(RFC 3339/m);
    const history = await runInProcess(["history", "--help"]);
    expect(history.stdout).toMatch(/^ {2}-n, --limit <n> +only the newest n versions/m);
    const restore = await runInProcess(["restore", "--help"]);
    expect(restore.stdout).toMatch(/^ {2}version +with a key: a version number from `claw-memory history/m);
  });
});
