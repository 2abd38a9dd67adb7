import { describe, expect, it, onTestFinished } from "vitest";
// The PostgreSQL test database of @claw/memory-postgres: PGlite + pgvector behind a loopback socket.
import { startPglite } from "../../../../packages/memory-postgres/src/test-support/test-database.js";
import { runInProcess, tempWorkspace } from "../test-support/cli-harness.js";

describe("migrate", () => {
  it("copies a SQLite workspace to PostgreSQL and back, and a second run copies nothing", async () => {
    const database = await startPglite();
    onTestFinished(() => database.close());
    const env = { CLAW_MEMORY_PG_URL: database.url };
    const ws = tempWorkspace();
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

    const back = tempWorkspace();
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

  it("needs a PostgreSQL URL and two different backends (exit 2)", async () => {
    const ws = tempWorkspace();
    const noUrl = await runInProcess(["-w", ws, "migrate", "--from", "sqlite", "--to", "postgres"]);
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toContain("CLAW_MEMORY_PG_URL");
    const same = await runInProcess(["-w", ws, "migrate", "--from", "sqlite", "--to", "sqlite"]);
    expect(same.code).toBe(2);
  });
});
