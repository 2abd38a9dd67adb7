// startServer composes config + environment: tokens from [[server.tokens]] and CLAW_MEMORY_API_KEY,
// the workspace from CLAW_MEMORY_WORKSPACE, and refuses an open listener beyond loopback.
import { createHash } from "node:crypto";
import { chmodSync, existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isMemoryError } from "@claw/memory-api";
import { describe, expect, it, onTestFinished } from "vitest";
import { resolveServerTokens } from "./compose/server-tokens.js";
import { startServer } from "./start-server.js";
import { tempWorkspace, testConfig } from "./test-support/server-harness.js";

const sha256 = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");

const CONFIG = `
[server]
host = "127.0.0.1"
port = 0

[[server.tokens]]
token_env = "TENANT_A_TOKEN"
namespaces = ["tenant-a"]

[[server.tokens]]
token = "reader-inline-token"
read_only = true
`;

describe("startServer composition", () => {
  it("refuses to listen beyond loopback without a token, before opening the store", async () => {
    const workspaceDir = tempWorkspace();
    const refused = await startServer({ workspaceDir, host: "0.0.0.0", port: 0, env: {} }).catch((e) => e);
    expect(isMemoryError(refused, "INVALID_INPUT")).toBe(true);
    expect(refused.message).toBe(
      "server.host: refusing to listen on 0.0.0.0 without a token: add [[server.tokens]] or set " +
        "CLAW_MEMORY_API_KEY, or listen on 127.0.0.1",
    );
    expect(existsSync(join(workspaceDir, "brain.db"))).toBe(false);
  });

  it("listens beyond loopback once a token exists", async () => {
    const running = await startServer({
      workspaceDir: tempWorkspace(),
      host: "0.0.0.0",
      port: 0,
      env: { CLAW_MEMORY_API_KEY: "k" },
      embeddings: null,
    });
    onTestFinished(() => running.close());
    expect(running.url).toMatch(/^http:\/\/0\.0\.0\.0:\d+$/);
    expect(running.authenticated).toBe(true);
  });

  it("takes the workspace from CLAW_MEMORY_WORKSPACE and the tokens from its config file and the environment", async () => {
    const workspaceDir = tempWorkspace();
    const file = join(workspaceDir, "claw-memory.toml");
    writeFileSync(file, CONFIG);
    chmodSync(file, 0o600);
    const running = await startServer({
      env: {
        CLAW_MEMORY_WORKSPACE: workspaceDir,
        TENANT_A_TOKEN: "tenant-a-env-token",
        CLAW_MEMORY_API_KEY: "admin-env",
      },
      embeddings: null,
    });
    onTestFinished(() => running.close());
    expect((await running.memory.status()).path).toBe(join(workspaceDir, "brain.db"));
    const call = (token: string, path: string, init: RequestInit = {}) =>
      fetch(`${running.url}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${token}`, ...init.headers },
      });
    const post = (token: string, namespace: string) =>
      call(token, "/v1/memories", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ key: "k", content: "v", namespace }),
      });
    expect((await post("tenant-a-env-token", "tenant-a")).status).toBe(200);
    expect((await post("tenant-a-env-token", "tenant-b")).status).toBe(403);
    expect((await post("reader-inline-token", "tenant-a")).status).toBe(403);
    expect((await call("reader-inline-token", "/v1/memories/k?namespace=tenant-a")).status).toBe(200);
    expect((await post("admin-env", "tenant-b")).status).toBe(200);
    expect((await call("nobody", "/v1/status")).status).toBe(401);
  });
});

describe("startServer recall workers", () => {
  it("starts server.recall_workers workers (2 by default) and answers recalls through them", async () => {
    const workspaceDir = tempWorkspace();
    const running = await startServer({ workspaceDir, port: 0, env: {}, embeddings: null });
    onTestFinished(() => running.close());
    expect(running.recallWorkers).toBe(2);
    await running.memory.store("standup", "The standup moved to ten thirty");
    const response = await fetch(`${running.url}/v1/recall`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "when is the standup?" }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { results: { key: string; score: number }[] };
    expect(body.results.map((r) => r.key)).toEqual(["standup"]);
    expect(body.results[0]?.score).toBeGreaterThan(0);
  });

  it("runs none with recall_workers = 0", async () => {
    const workspaceDir = tempWorkspace();
    const file = join(workspaceDir, "claw-memory.toml");
    writeFileSync(file, "[server]\nrecall_workers = 0\n");
    chmodSync(file, 0o600);
    const running = await startServer({ workspaceDir, port: 0, env: {}, embeddings: null });
    onTestFinished(() => running.close());
    expect(running.recallWorkers).toBe(0);
  });
});

describe("resolveServerTokens", () => {
  it("reads token_env variables and adds CLAW_MEMORY_API_KEY with every namespace", () => {
    const config = testConfig({
      server: {
        tokens: [
          { tokenEnv: "T1", namespaces: ["a"] },
          { token: "inline", readOnly: true },
        ],
      },
    });
    // Each as its SHA-256 digest: no plaintext token is handed on.
    expect(resolveServerTokens(config.server, { T1: " from-env ", CLAW_MEMORY_API_KEY: "key" })).toEqual([
      { sha256: sha256("from-env"), name: "server.tokens[0]", readOnly: false, namespaces: ["a"] },
      { sha256: sha256("inline"), name: "server.tokens[1]", readOnly: true },
      { sha256: sha256("key"), name: "CLAW_MEMORY_API_KEY", readOnly: false },
    ]);
  });

  it("refuses a token_env whose variable is unset or empty, naming the key", () => {
    const config = testConfig({ server: { tokens: [{ tokenEnv: "MISSING_TOKEN" }] } });
    for (const env of [{}, { MISSING_TOKEN: "  " }]) {
      expect(() => resolveServerTokens(config.server, env)).toThrowError(
        "server.tokens[0].token_env: the environment variable MISSING_TOKEN is not set (or empty)",
      );
    }
  });

  it("has no tokens when nothing is configured", () => {
    expect(resolveServerTokens(testConfig().server, { CLAW_MEMORY_API_KEY: "" })).toEqual([]);
  });
});

describe("startServer on a store that cannot open", () => {
  it("refuses to start rather than serve a NoneMemory", async () => {
    const file = join(tempWorkspace(), "not-a-folder");
    writeFileSync(file, "x");
    const error = await startServer({
      workspaceDir: join(file, "ws"),
      port: 0,
      env: {},
      embeddings: null,
    }).catch((e: unknown) => e);
    expect(isMemoryError(error, "STORAGE")).toBe(true);
  });
});
