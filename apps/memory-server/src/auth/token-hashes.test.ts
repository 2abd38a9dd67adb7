// `[[server.tokens]] token_sha256`: a token configured by its hash authenticates with its scope, over
// inject and over a real socket; plaintext tokens keep working, with a warning in status and the log.
import { createHash } from "node:crypto";
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { recordingLogger } from "@claw/memory-core/testkit";
import { describe, expect, it, onTestFinished } from "vitest";
import { resolveServerTokens, withTokensHashed } from "../compose/server-tokens.js";
import { startServer } from "../start-server.js";
import { bearer, errorOf, tempWorkspace, testConfig, testServer } from "../test-support/server-harness.js";
import { TokenVerifier } from "./bearer-auth.js";

const sha256 = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");

const ADMIN = "admin-hashed-token-0123456789";
const TENANT_READER = "tenant-a-reader-hashed-token-0123";
const PLAIN = "plain-config-token-0123456789";
const WARNING =
  "server.tokens[2] holds its token in plain text; store its hash instead: claw-memory token create NAME";

/** An admin and a read-only tenant-a reader by hash (one upper case), and a plaintext token. */
const CONFIG = testConfig({
  server: {
    tokens: [
      { tokenSha256: sha256(ADMIN).toUpperCase() },
      { tokenSha256: sha256(TENANT_READER), namespaces: ["tenant-a"], readOnly: true },
      { token: PLAIN, namespaces: ["tenant-b"] },
    ],
  },
});

describe("TokenVerifier with digests", () => {
  it("accepts the token whose digest is configured, with that entry's scope", () => {
    const verifier = new TokenVerifier([
      { sha256: sha256("first-secret"), name: "first" },
      { sha256: sha256("second-secret"), name: "second", namespaces: ["a"], readOnly: true },
      { token: "third-secret", name: "third" },
    ]);
    expect(verifier.verify("Bearer second-secret")).toEqual({
      id: "second",
      namespaces: ["a"],
      readOnly: true,
    });
    expect(verifier.verify("Bearer first-secret")).toEqual({ id: "first", readOnly: false });
    expect(verifier.verify("Bearer third-secret")).toEqual({ id: "third", readOnly: false });
    // The digest itself is not a token.
    expect(() => verifier.verify(`Bearer ${sha256("first-secret")}`)).toThrowError("invalid bearer token");
  });

  it("refuses a digest that is not 64 hex digits, and an entry with a token and a digest", () => {
    expect(() => new TokenVerifier([{ sha256: "abc" }])).toThrowError(
      "tokens[0].sha256: expected 64 hex digits",
    );
    const both = { token: "t", sha256: sha256("t") } as unknown as { token: string };
    expect(() => new TokenVerifier([{ token: "x" }, both])).toThrowError(
      "tokens[1]: expected token or sha256, not both",
    );
  });
});

describe("resolveServerTokens and the config a server keeps", () => {
  it("holds every configured token as its digest, CLAW_MEMORY_API_KEY included", () => {
    const config = testConfig({
      server: {
        tokens: [{ tokenSha256: sha256(ADMIN) }, { tokenEnv: "T1", readOnly: true }, { token: PLAIN }],
      },
    });
    const tokens = resolveServerTokens(config.server, { T1: " from-env ", CLAW_MEMORY_API_KEY: "key" });
    expect(tokens).toEqual([
      { sha256: sha256(ADMIN), name: "server.tokens[0]", readOnly: false },
      { sha256: sha256("from-env"), name: "server.tokens[1]", readOnly: true },
      { sha256: sha256(PLAIN), name: "server.tokens[2]", readOnly: false },
      { sha256: sha256("key"), name: "CLAW_MEMORY_API_KEY", readOnly: false },
    ]);
    expect(JSON.stringify(tokens)).not.toContain(PLAIN);
  });

  it("withTokensHashed replaces a plaintext token by its token_sha256 and leaves the given config alone", () => {
    const hashed = withTokensHashed(CONFIG);
    expect(hashed.server.tokens).toEqual([
      { tokenSha256: sha256(ADMIN), readOnly: false },
      { tokenSha256: sha256(TENANT_READER), namespaces: ["tenant-a"], readOnly: true },
      { tokenSha256: sha256(PLAIN), namespaces: ["tenant-b"], readOnly: false },
    ]);
    expect(JSON.stringify(hashed)).not.toContain(PLAIN);
    expect(CONFIG.server.tokens[2]?.token).toBe(PLAIN);
    const onlyHashes = testConfig({ server: { tokens: [{ tokenSha256: sha256(ADMIN) }] } });
    expect(withTokensHashed(onlyHashes)).toBe(onlyHashes);
  });
});

describe("hashed tokens over fastify inject", () => {
  it("authenticate with their namespaces and read-only scope; a wrong token is 401; a plaintext one still works", async () => {
    const { app } = await testServer({ config: CONFIG, tokens: resolveServerTokens(CONFIG.server, {}) });
    const store = (token: string, namespace: string) =>
      app.inject({
        method: "POST",
        url: "/v1/memories",
        headers: bearer(token),
        payload: { key: "k", content: `in ${namespace}`, namespace },
      });
    const get = (token: string, namespace: string) =>
      app.inject({ method: "GET", url: `/v1/memories/k?namespace=${namespace}`, headers: bearer(token) });

    expect((await store(ADMIN, "tenant-a")).statusCode).toBe(200);
    const read = await get(TENANT_READER, "tenant-a");
    expect(read.statusCode).toBe(200);
    expect(read.json().content).toBe("in tenant-a");
    const readOnly = await store(TENANT_READER, "tenant-a");
    expect(readOnly.statusCode).toBe(403);
    expect(errorOf(readOnly).code).toBe("FORBIDDEN");
    expect((await get(TENANT_READER, "tenant-b")).statusCode).toBe(403);

    expect((await store(PLAIN, "tenant-b")).statusCode).toBe(200);
    expect((await store(PLAIN, "tenant-a")).statusCode).toBe(403);

    for (const wrong of [`${ADMIN}x`, sha256(ADMIN), "nobody"]) {
      const response = await get(wrong, "tenant-a");
      expect(response.statusCode).toBe(401);
      expect(errorOf(response)).toEqual({ code: "UNAUTHORIZED", message: "invalid bearer token" });
    }
  });

  it("status warns a token with every namespace about the plaintext token, not a scoped one", async () => {
    const { app } = await testServer({ config: CONFIG, tokens: resolveServerTokens(CONFIG.server, {}) });
    const admin = await app.inject({ method: "GET", url: "/v1/status", headers: bearer(ADMIN) });
    expect(admin.statusCode).toBe(200);
    expect(admin.json().warnings).toEqual([WARNING]);
    const scoped = await app.inject({ method: "GET", url: "/v1/status", headers: bearer(TENANT_READER) });
    expect(scoped.statusCode).toBe(200);
    expect(scoped.json().warnings ?? []).toEqual([]);
  });

  it("status has no token warning when the config holds only hashes", async () => {
    const config = testConfig({ server: { tokens: [{ tokenSha256: sha256(ADMIN) }] } });
    const { app } = await testServer({ config, tokens: resolveServerTokens(config.server, {}) });
    const status = await app.inject({ method: "GET", url: "/v1/status", headers: bearer(ADMIN) });
    expect(status.statusCode).toBe(200);
    expect(status.json().warnings ?? []).toEqual([]);
  });
});

describe("hashed tokens over a real socket (startServer on 127.0.0.1)", () => {
  async function start(toml: string, mode: number) {
    const workspaceDir = tempWorkspace();
    const file = join(workspaceDir, "claw-memory.toml");
    writeFileSync(file, `[server]\nhost = "127.0.0.1"\nport = 0\nrecall_workers = 0\n\n${toml}`);
    chmodSync(file, mode);
    const logger = recordingLogger();
    const running = await startServer({ workspaceDir, env: {}, embeddings: null, logger });
    onTestFinished(() => running.close());
    const call = (token: string, path: string, init: RequestInit = {}) =>
      fetch(`${running.url}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...init.headers },
      });
    return { running, logger, call };
  }

  it("a world-readable config holding only hashes starts, and its tokens carry their scope", async () => {
    const { running, logger, call } = await start(
      `[[server.tokens]]\n# admin\ntoken_sha256 = "${sha256(ADMIN)}"\n\n` +
        `[[server.tokens]]\n# reader\ntoken_sha256 = "${sha256(TENANT_READER).toUpperCase()}"\n` +
        'namespaces = ["tenant-a"]\nread_only = true\n',
      0o644,
    );
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const body = JSON.stringify({ key: "k", content: "v", namespace: "tenant-a" });
    expect((await call(ADMIN, "/v1/memories", { method: "POST", body })).status).toBe(200);
    const read = await call(TENANT_READER, "/v1/memories/k?namespace=tenant-a");
    expect(read.status).toBe(200);
    expect(((await read.json()) as { content: string }).content).toBe("v");
    expect((await call(TENANT_READER, "/v1/memories", { method: "POST", body })).status).toBe(403);
    expect((await call(TENANT_READER, "/v1/memories/k?namespace=tenant-b")).status).toBe(403);
    const wrong = await call(`${ADMIN}-wrong`, "/v1/status");
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as { error: { code: string } }).error.code).toBe("UNAUTHORIZED");
    const status = (await (await call(ADMIN, "/v1/status")).json()) as { warnings?: string[] };
    expect(status.warnings ?? []).toEqual([]);
    expect(logger.lines.filter((line) => line.startsWith("warn:"))).toEqual([]);
  });

  it("a plaintext token (chmod 600) still works, is warned about once in the log and in status", async () => {
    const { logger, call } = await start(
      `[[server.tokens]]\ntoken_sha256 = "${sha256(ADMIN)}"\n\n[[server.tokens]]\ntoken = "${PLAIN}"\n`,
      0o600,
    );
    const body = JSON.stringify({ key: "k", content: "v" });
    expect((await call(PLAIN, "/v1/memories", { method: "POST", body })).status).toBe(200);
    expect((await call(ADMIN, "/v1/memories/k")).status).toBe(200);
    expect((await call("nobody", "/v1/memories/k")).status).toBe(401);
    const expected =
      "server.tokens[1] holds its token in plain text; store its hash instead: claw-memory token create NAME";
    const status = (await (await call(ADMIN, "/v1/status")).json()) as { warnings?: string[] };
    expect(status.warnings).toEqual([expected]);
    // A second status call changes nothing in the log: the warning was logged once, at start.
    await call(ADMIN, "/v1/status");
    expect(logger.lines.filter((line) => line.startsWith("warn:"))).toEqual([`warn: ${expected}`]);
    expect(logger.lines.join("\n")).not.toContain(PLAIN);
  });
});
