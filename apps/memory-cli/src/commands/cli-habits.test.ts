import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import type { EmbeddingProvider } from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";
import { createHashingEmbeddingProvider } from "@claw/memory-core";
import { describe, expect, it } from "vitest";
import { runInProcess, tempWorkspace } from "../test-support/cli-harness.js";

describe("CLI habits", () => {
  it("a --workspace that does not exist is a usage error naming init, and creates nothing", async () => {
    const missing = join(tempWorkspace(), "typo");
    const result = await runInProcess(["-w", missing, "recall", "standup"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`claw-memory --workspace ${missing} init`);
    expect(existsSync(missing)).toBe(false);
    // init creates it; then the same command works.
    expect((await runInProcess(["-w", missing, "init"])).code).toBe(0);
    expect((await runInProcess(["-w", missing, "recall", "standup"])).code).toBe(0);
  });

  it("the default workspace (from the environment) is still created on first use", async () => {
    const fresh = join(tempWorkspace(), "default-ws");
    const result = await runInProcess(["store", "k", "v"], { env: { CLAW_MEMORY_WORKSPACE: fresh } });
    expect(result.code).toBe(0);
    expect(existsSync(join(fresh, "brain.db"))).toBe(true);
  });

  it.each([
    ["add", "store"],
    ["rm", "forget"],
    ["delete", "forget"],
    ["ls", "list"],
  ])("`%s` suggests `%s`", async (typed, command) => {
    const result = await runInProcess(["-w", tempWorkspace(), typed, "k", "v"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`did you mean \`claw-memory ${command}\``);
  });

  it("status --deep embeds one text and checks the database", async () => {
    const ws = tempWorkspace();
    const embeddings = createHashingEmbeddingProvider({ dimensions: 16 });
    const ok = await runInProcess(["-w", ws, "--json", "status", "--deep"], { embeddings });
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout).checks).toEqual({ database: "ok", provider: "ok (16 dimensions)" });
    const keywordOnly = await runInProcess(["-w", ws, "--json", "status", "--deep"]);
    expect(JSON.parse(keywordOnly.stdout).checks.provider).toBe("none (keyword-only)");
  });

  it("status --deep exits non-zero when the provider fails", async () => {
    const broken: EmbeddingProvider = {
      id: "broken",
      model: "m",
      dimensions: 16,
      async embed() {
        throw new MemoryError("PROVIDER_AUTH", "broken: HTTP 401 invalid key");
      },
    };
    const result = await runInProcess(["-w", tempWorkspace(), "status", "--deep"], { embeddings: broken });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^provider check\s+failed: .*401/m);
    expect(result.stderr).toContain("check the API key");
  });

  it("serve on a port in use names the port and --port", async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const { port } = blocker.address() as { port: number };
    try {
      const result = await runInProcess(["-w", tempWorkspace(), "serve", "--port", String(port)]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`);
      expect(result.stderr).toContain("--port");
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });
});
