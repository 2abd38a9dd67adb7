import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
// The PostgreSQL test databases of @claw/memory-postgres: PGlite + pgvector behind a loopback
// socket, and the server CLAW_MEMORY_PG_URL names when it is set.
import { closedPort } from "../../../packages/memory-postgres/src/test-support/closed-port.js";
import { forEachTestDatabase } from "../../../packages/memory-postgres/src/test-support/test-database.js";
import { runInProcess, tempWorkspace } from "./test-support/cli-harness.js";

/** A workspace whose config puts the store in PostgreSQL (the URL comes from the environment). */
function postgresWorkspace(postgres = ""): string {
  const ws = tempWorkspace();
  writeFileSync(join(ws, "claw-memory.toml"), `[memory]\nbackend = "postgres"\n\n[postgres]\n${postgres}`);
  return ws;
}

forEachTestDatabase((database) => {
  describe("history, restore and expiry on PostgreSQL", () => {
    it("records the CLI's changes, restores a forgotten version and purges an expired entry", async () => {
      const ws = postgresWorkspace(
        `schema = "${database().newSchema()}"\npool_max = ${database().poolMax}\n`,
      );
      const env = { CLAW_MEMORY_PG_URL: database().url };
      const run = (...args: string[]) => runInProcess(["-w", ws, ...args], { env });
      await run("store", "door", "the door code is 1234");
      await run("store", "door", "the door code is 9876", "--meta", "site=office");
      await run("forget", "door");
      const history = JSON.parse((await run("--json", "history", "door")).stdout) as Array<{
        version: number;
        action: string;
        actor: string;
      }>;
      expect(history.map((v) => [v.version, v.action, v.actor])).toEqual([
        [3, "forget", "cli"],
        [2, "update", "cli"],
        [1, "create", "cli"],
      ]);
      expect((await run("restore", "door", "1")).code).toBe(0);
      expect(JSON.parse((await run("--json", "get", "door")).stdout).content).toBe("the door code is 1234");
      // Version 2's metadata filters: after the restore of version 1 (no metadata) nothing matches.
      const filtered = async () =>
        (
          JSON.parse((await run("--json", "recall", "door code", "--where", "site=office")).stdout) as Array<{
            key: string;
          }>
        ).map((e) => e.key);
      expect(await filtered()).toEqual([]);
      await run("restore", "door", "2");
      expect(await filtered()).toEqual(["door"]);

      const line = { key: "stale", content: "an old offer", expiresAt: "2020-01-01T00:00:00Z" };
      await runInProcess(["-w", ws, "import"], { env, stdin: JSON.stringify(line) });
      expect((await run("get", "stale")).code).toBe(3);
      expect(JSON.parse((await run("--json", "purge-expired")).stdout)).toEqual({ removed: 1 });
      const expired = JSON.parse((await run("--json", "history", "stale")).stdout) as Array<{
        action: string;
      }>;
      expect(expired.map((v) => v.action)).toEqual(["expire", "create"]);
    });
  });

  describe("status on PostgreSQL", () => {
    it("names the full-text search: tsvector with the store's text search configuration", async () => {
      const ws = postgresWorkspace(
        `schema = "${database().newSchema()}"\ntext_search_config = "german"\npool_max = ${database().poolMax}\n`,
      );
      const env = { CLAW_MEMORY_PG_URL: database().url };
      expect((await runInProcess(["-w", ws, "store", "apfel", "Äpfel im Garten"], { env })).code).toBe(0);

      const text = await runInProcess(["-w", ws, "status"], { env });
      expect(text.code).toBe(0);
      const lines = text.stdout.split("\n");
      expect(lines).toContain("backend          postgres");
      expect(lines).toContain("full-text        postgres tsvector (german)");
      const json = JSON.parse((await runInProcess(["-w", ws, "--json", "status"], { env })).stdout);
      expect(json).toMatchObject({
        backend: "postgres",
        entries: 1,
        fts: true,
        ftsEngine: "postgres tsvector (german)",
      });
    });
  });
});

describe("a PostgreSQL server that cannot be reached", () => {
  it("is one error naming the server, its password masked, and what to check (exit 1)", async () => {
    const port = await closedPort();
    const ws = postgresWorkspace();
    const env = { CLAW_MEMORY_PG_URL: `postgres://claw:s3cret@127.0.0.1:${port}/claw` };

    const result = await runInProcess(["-w", ws, "store", "k", "kept nowhere"], { env });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr.split("\n")).toEqual([
      `error: cannot connect to PostgreSQL at postgres://claw:***@127.0.0.1:${port}/claw ` +
        `(connect ECONNREFUSED 127.0.0.1:${port}): is the server running and reachable?`,
      "the message above says what to start, install or change.",
      "",
    ]);
  });
});
