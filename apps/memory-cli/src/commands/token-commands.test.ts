import { createHash } from "node:crypto";
import { chmodSync, existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfigFromToml } from "@claw/memory-core";
import { describe, expect, it } from "vitest";
import { runBinary, runInProcess, tempWorkspace } from "../test-support/cli-harness.js";

const sha256 = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");

interface Created {
  name: string;
  token: string;
  tokenSha256: string;
  namespaces?: string[];
  readOnly: boolean;
  toml: string;
}

async function create(args: string[], ws = tempWorkspace()): Promise<Created> {
  const result = await runInProcess(["-w", ws, "--json", "token", "create", ...args]);
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: "" });
  return JSON.parse(result.stdout) as Created;
}

describe("claw-memory token create", () => {
  it("prints a random 32-byte base64url token and the TOML holding its SHA-256 (--json)", async () => {
    const created = await create([
      "ci runner",
      "--namespace",
      "tenant-a",
      "--namespace",
      "tenant-b",
      "--read-only",
    ]);
    expect(created.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(created.token, "base64url")).toHaveLength(32);
    expect(created.tokenSha256).toBe(sha256(created.token));
    expect(created).toMatchObject({
      name: "ci runner",
      namespaces: ["tenant-a", "tenant-b"],
      readOnly: true,
    });
    expect(created.toml.split("\n")).toEqual([
      "[[server.tokens]]",
      expect.stringMatching(/^# ci runner, created \d{4}-\d{2}-\d{2}$/),
      `token_sha256 = "${created.tokenSha256}"`,
      'namespaces = ["tenant-a", "tenant-b"]',
      "read_only = true",
    ]);
    // The lines are a valid [[server.tokens]] entry, holding the hash and never the token.
    expect(loadConfigFromToml(created.toml).server.tokens).toEqual([
      { tokenSha256: sha256(created.token), namespaces: ["tenant-a", "tenant-b"], readOnly: true },
    ]);
    expect(created.toml).not.toContain(created.token);
  });

  it("without options: every namespace, writes allowed; each run a new token", async () => {
    const first = await create(["alice"]);
    const second = await create(["alice"]);
    expect(first.token).not.toBe(second.token);
    expect(first.readOnly).toBe(false);
    expect(first.namespaces).toBeUndefined();
    expect(loadConfigFromToml(first.toml).server.tokens).toEqual([
      { tokenSha256: sha256(first.token), readOnly: false },
    ]);
  });

  it("prints the token once and the lines to paste, as text", async () => {
    const result = await runInProcess([
      "-w",
      tempWorkspace(),
      "token",
      "create",
      "bob",
      "--namespace",
      'odd "ns"',
    ]);
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split("\n");
    const token = lines[2] as string;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(result.stdout.split(token)).toHaveLength(2);
    expect(lines[0]).toContain("token for bob");
    const toml = lines.slice(lines.indexOf("[[server.tokens]]")).join("\n");
    expect(loadConfigFromToml(toml).server.tokens).toEqual([
      { tokenSha256: sha256(token), namespaces: ['odd "ns"'], readOnly: false },
    ]);
  });

  it("opens no store and writes nothing: not even a named workspace that does not exist", async () => {
    const ws = tempWorkspace();
    await create(["carol"], ws);
    expect(readdirSync(ws)).toEqual([]);
    const missing = join(ws, "absent");
    const result = await runInProcess(["-w", missing, "token", "create", "carol"]);
    expect(result.code).toBe(0);
    expect(existsSync(missing)).toBe(false);
  });

  it("refuses an empty NAME or namespace and control characters (usage, exit 2)", async () => {
    const ws = tempWorkspace();
    for (const args of [[""], ["x", "--namespace", " "], ["a\nb"], ["x", "--namespace", "a\u007fb"]]) {
      const result = await runInProcess(["-w", ws, "token", "create", ...args]);
      expect({ args, code: result.code }).toEqual({ args, code: 2 });
      expect(result.stdout).toBe("");
    }
  });

  it("runs from the built binary too, with no database beside it", async () => {
    const ws = tempWorkspace();
    const result = await runBinary(["--json", "token", "create", "dave"], {
      env: { CLAW_MEMORY_WORKSPACE: ws },
    });
    expect(result.code).toBe(0);
    const created = JSON.parse(result.stdout) as Created;
    expect(created.tokenSha256).toBe(sha256(created.token));
    expect(readdirSync(ws)).toEqual([]);
  });

  it("a server configured with the printed lines accepts the printed token, with its scope", async () => {
    const ws = tempWorkspace();
    const writer = await create(["writer", "--namespace", "tenant-a"], ws);
    const reader = await create(["reader", "--read-only"], ws);
    const file = join(ws, "claw-memory.toml");
    writeFileSync(file, `[server]\nrecall_workers = 0\n\n${writer.toml}\n\n${reader.toml}\n`);
    // Only hashes: a file anyone may read is fine.
    chmodSync(file, 0o644);
    let stop: () => void = () => {};
    const stopped = new Promise<void>((resolve) => {
      stop = resolve;
    });
    const statuses: Record<string, number> = {};
    let failure: unknown;
    const result = await runInProcess(["-w", ws, "--json", "serve", "--port", "0"], {
      stopSignal: () => stopped,
      onStdout: (text) => {
        const { url } = JSON.parse(text) as { url: string };
        const call = (token: string, path: string, body?: unknown) =>
          fetch(`${url}${path}`, {
            method: body === undefined ? "GET" : "POST",
            headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
            ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          }).then((response) => response.status);
        (async () => {
          statuses.writerA = await call(writer.token, "/v1/memories", {
            key: "k",
            content: "v",
            namespace: "tenant-a",
          });
          statuses.writerB = await call(writer.token, "/v1/memories", {
            key: "k",
            content: "v",
            namespace: "tenant-b",
          });
          statuses.readerGet = await call(reader.token, "/v1/memories/k?namespace=tenant-a");
          statuses.readerStore = await call(reader.token, "/v1/memories", { key: "r", content: "v" });
          statuses.hashAsToken = await call(writer.tokenSha256, "/v1/memories/k?namespace=tenant-a");
        })().then(stop, (error: unknown) => {
          failure = error;
          stop();
        });
      },
    });
    expect(failure).toBeUndefined();
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    expect(statuses).toEqual({
      writerA: 200,
      writerB: 403,
      readerGet: 200,
      readerStore: 403,
      hashAsToken: 401,
    });
  });
});

describe("status and plaintext server tokens", () => {
  const WARNING =
    "server.tokens[1] holds its token in plain text; store its hash instead: claw-memory token create NAME";

  it("warns about a [[server.tokens]] entry holding a plaintext token", async () => {
    const ws = tempWorkspace();
    const file = join(ws, "claw-memory.toml");
    writeFileSync(
      file,
      `[[server.tokens]]\ntoken_sha256 = "${sha256("a")}"\n\n[[server.tokens]]\ntoken = "plain-secret-token"\n`,
    );
    chmodSync(file, 0o600);
    const json = JSON.parse((await runInProcess(["-w", ws, "--json", "status"])).stdout);
    expect(json.warnings).toEqual([WARNING]);
    const text = await runInProcess(["-w", ws, "status"]);
    expect(text.code).toBe(0);
    expect(text.stdout.split("\n")).toContain(`warning: ${WARNING}`);
    expect(text.stdout).not.toContain("plain-secret-token");
  });

  it("says nothing of tokens held as hashes", async () => {
    const ws = tempWorkspace();
    writeFileSync(join(ws, "claw-memory.toml"), `[[server.tokens]]\ntoken_sha256 = "${sha256("a")}"\n`);
    const json = JSON.parse((await runInProcess(["-w", ws, "--json", "status"])).stdout);
    expect(json.warnings ?? []).toEqual([]);
    expect((await runInProcess(["-w", ws, "status"])).stdout).not.toContain("plain text");
  });
});
