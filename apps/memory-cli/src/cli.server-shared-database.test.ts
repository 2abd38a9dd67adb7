import { startServer } from "@claw/memory-server";
import { describe, expect, it, onTestFinished } from "vitest";
import { runBinary, tempWorkspace } from "./test-support/cli-harness.js";

/**
 * Two processes on one brain.db: the HTTP server, and the `claw-memory` binary writing the same
 * workspace at the same time. Nothing written by either is lost, and each sees the other's writes
 * (the server's hot cache notices the other process's commits).
 */
describe("server and CLI writing the same database", () => {
  it("loses nothing and each sees the other's writes", async () => {
    const workspaceDir = tempWorkspace();
    const server = await startServer({
      workspaceDir,
      port: 0,
      env: {},
      embeddings: null,
      limits: { rateLimit: false },
    });
    onTestFinished(() => server.close());
    const post = (path: string, body: unknown) =>
      fetch(`${server.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }));

    // The server caches a recall that finds nothing yet.
    expect((await post("/v1/recall", { query: "lighthouse" })).body.results).toEqual([]);

    const cliLines = Array.from({ length: 600 }, (_, i) =>
      JSON.stringify({ key: `cli-${i}`, content: `lighthouse note ${i}` }),
    );
    const [cli, ...http] = await Promise.all([
      runBinary(["-w", workspaceDir, "--json", "import"], { stdin: cliLines.join("\n") }),
      ...Array.from({ length: 200 }, (_, i) =>
        post("/v1/memories", { key: `http-${i}`, content: `harbour note ${i}` }),
      ),
    ]);
    expect(cli.code).toBe(0);
    expect(JSON.parse(cli.stdout)).toEqual({ imported: 600, invalid: 0 });
    expect(http.every((r) => r.status === 200)).toBe(true);

    // The server sees the CLI's entries (no stale cached answer), the CLI sees the server's.
    const recalled = await post("/v1/recall", { query: "lighthouse", limit: 3 });
    expect((recalled.body.results as unknown[]).length).toBe(3);
    const exported = await runBinary(["-w", workspaceDir, "export"]);
    const keys = exported.stdout
      .trimEnd()
      .split("\n")
      .map((l) => (JSON.parse(l) as { key: string }).key);
    expect(keys.length).toBe(800);
    expect(keys.filter((k) => k.startsWith("cli-")).length).toBe(600);
    expect(keys.filter((k) => k.startsWith("http-")).length).toBe(200);
    const status = await fetch(`${server.url}/v1/status`).then(
      (r) => r.json() as Promise<{ entries: number }>,
    );
    expect(status.entries).toBe(800);
  });
});
