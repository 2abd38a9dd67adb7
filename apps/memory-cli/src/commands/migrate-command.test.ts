import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
// The PostgreSQL test databases of @claw/memory-postgres: PGlite + pgvector behind a loopback
// socket, and the server CLAW_MEMORY_PG_URL names when it is set.
import { forEachTestDatabase } from "../../../../packages/memory-postgres/src/test-support/test-database.js";
import { runInProcess, tempWorkspace } from "../test-support/cli-harness.js";

/** A workspace whose PostgreSQL tables go in `schema` (dropped with the test database). */
function workspaceIn(schema: string): string {
  const ws = tempWorkspace();
  writeFileSync(join(ws, "claw-memory.toml"), `[postgres]\nschema = "${schema}"\n`);
  return ws;
}

forEachTestDatabase((database) => {
  it("migrate copies a SQLite workspace to PostgreSQL and back, and a second run copies nothing", async () => {
    const schema = database().newSchema();
    const env = { CLAW_MEMORY_PG_URL: database().url };
    const ws = workspaceIn(schema);
    const lines = Array.from({ length: 1200 }, (_, i) =>
      JSON.stringify({ key: `k${i}`, content: `note ${i} about the garden`, namespace: i % 2 ? "a" : "b" }),
    );
    await runInProcess(["-w", ws, "import"], { stdin: lines.join("\n") });

    const there = await runInProcess(
      ["-w", ws, "--json", "migrate", "--from", "sqlite", "--to", "postgres"],
      { env },
    );
    expect({
      code: there.code,
      stderr: there.stderr.split("\n").filter((l) => l.startsWith("error")),
    }).toEqual({
      code: 0,
      stderr: [],
    });
    expect(JSON.parse(there.stdout)).toEqual({
      from: "sqlite",
      to: "postgres",
      total: 1200,
      copied: 1200,
      skipped: 0,
    });
    expect(there.stderr).toContain("migrate: 100% (1200/1200)");

    const again = await runInProcess(
      ["-w", ws, "--json", "migrate", "--from", "sqlite", "--to", "postgres"],
      { env },
    );
    expect(JSON.parse(again.stdout)).toMatchObject({ copied: 0, skipped: 1200 });

    const back = workspaceIn(schema);
    const home = await runInProcess(
      ["-w", back, "--json", "migrate", "--from", "postgres", "--to", "sqlite"],
      { env },
    );
    expect(JSON.parse(home.stdout)).toMatchObject({ total: 1200, copied: 1200 });
    const exported = (await runInProcess(["-w", back, "export"])).stdout;
    const original = (await runInProcess(["-w", ws, "export"])).stdout;
    const sortLines = (text: string) => text.trimEnd().split("\n").sort();
    expect(sortLines(exported)).toEqual(sortLines(original));
  }, 120_000);
});

describe("migrate", () => {
  it("needs a PostgreSQL URL and two different backends (exit 2)", async () => {
    const ws = tempWorkspace();
    const noUrl = await runInProcess(["-w", ws, "migrate", "--from", "sqlite", "--to", "postgres"]);
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toContain("CLAW_MEMORY_PG_URL");
    const same = await runInProcess(["-w", ws, "migrate", "--from", "sqlite", "--to", "sqlite"]);
    expect(same.code).toBe(2);
  });
});
