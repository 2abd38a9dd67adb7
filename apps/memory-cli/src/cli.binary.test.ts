import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { describe, expect, it, onTestFinished } from "vitest";
import { BIN, runBinary, runInProcess, tempWorkspace } from "./test-support/cli-harness.js";

describe("the built claw-memory binary", () => {
  it("prints help and version with exit 0", async () => {
    const help = await runBinary(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Usage: claw-memory [options] [command]");
    for (const command of [
      "store",
      "recall",
      "history",
      "restore",
      "purge-expired",
      "import",
      "hygiene",
      "curate",
      "mcp",
      "init",
    ]) {
      expect(help.stdout).toMatch(new RegExp(`^  ${command} `, "m"));
    }
    const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
    expect((await runBinary(["--version"])).stdout).toBe(`${version}\n`);
  });

  it("exits 2 on an unknown command or a missing argument", async () => {
    const unknown = await runBinary(["bogus"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown command 'bogus'");
    expect((await runBinary(["get"])).code).toBe(2);
  });

  it("stores, recalls and reports not found across processes, using CLAW_MEMORY_WORKSPACE", async () => {
    const env = { CLAW_MEMORY_WORKSPACE: tempWorkspace() };
    expect((await runBinary(["store", "tz", "The user lives in Lisbon"], { env })).code).toBe(0);
    expect((await runBinary(["store", "pet"], { env, stdin: "The user has a cat named Miso\n" })).code).toBe(
      0,
    );
    const recall = await runBinary(["--json", "recall", "cat"], { env });
    expect(JSON.parse(recall.stdout).map((e: { key: string }) => e.key)).toEqual(["pet"]);
    const missing = await runBinary(["--json", "get", "nope"], { env });
    expect(missing.code).toBe(3);
    expect(JSON.parse(missing.stdout).error.code).toBe("NOT_FOUND");
  });

  it("never writes colour codes when not on a terminal", async () => {
    const env = { CLAW_MEMORY_WORKSPACE: tempWorkspace(), NO_COLOR: "" };
    await runBinary(["store", "a", "alpha"], { env });
    const out = await runBinary(["recall", "alpha"], { env });
    expect(out.stdout).toContain("alpha");
    expect(out.stdout).not.toContain("\u001b[");
  });

  it("draws a progress bar on a real terminal (pty via script)", async () => {
    const ws = tempWorkspace();
    const file = join(ws, "in.jsonl");
    writeFileSync(
      file,
      Array.from({ length: 3000 }, (_, i) => JSON.stringify({ key: `k${i}`, content: `n ${i}` })).join("\n"),
    );
    const command = `${process.execPath} ${BIN} -w ${ws} import ${file}`;
    const result = await runBinary([], { command: ["script", "-qfec", command, "/dev/null"] });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("\rimport ████████░░░░░░░░░░░░░░░░ 33% 1000/3000");
    expect(result.stdout).toContain("\rimport ████████████████████████ 100% 3000/3000");
    expect(result.stdout).toContain("imported 3000 memories");
  });
});

describe("claw-memory mcp (stdio, official MCP client)", () => {
  it("serves the memory tools to a client that launches it", async () => {
    const ws = tempWorkspace();
    await runBinary(["-w", ws, "store", "tz", "The user lives in Lisbon"]);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, "-w", ws, "mcp"],
      env: { PATH: process.env.PATH ?? "", NO_COLOR: "1" },
      stderr: "pipe",
    });
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(transport);
    onTestFinished(() => client.close());

    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name).sort()).toEqual([
      "memory_context",
      "memory_forget",
      "memory_get",
      "memory_history",
      "memory_restore",
      "memory_search",
      "memory_store",
    ]);
    const stored = await client.callTool({
      name: "memory_store",
      arguments: { key: "pet", content: "A cat named Miso" },
    });
    expect(stored.isError).toBeFalsy();
    const found = await client.callTool({ name: "memory_search", arguments: { query: "Lisbon" } });
    expect(
      (found.structuredContent as { results: Array<{ key: string }> }).results.map((r) => r.key),
    ).toEqual(["tz"]);
    await client.close();

    const got = await runBinary(["-w", ws, "--json", "get", "pet"]);
    expect(JSON.parse(got.stdout).content).toBe("A cat named Miso");
  });
});

describe("lazy start-up", () => {
  it("get and list never load a provider package; recall and store do", async () => {
    const ws = tempWorkspace();
    const loaded: string[] = [];
    const deps = {
      env: { OPENAI_API_KEY: "sk-test", NO_COLOR: "1" },
      importModule: async (specifier: string) => {
        loaded.push(specifier);
        throw new Error("not installed in this test");
      },
    };
    const { PassThrough } = await import("node:stream");
    const { runCli } = await import("./run-cli.js");
    const run = (args: string[]) =>
      runCli(["-w", ws, ...args], {
        ...deps,
        cwd: process.cwd(),
        stdin: Object.assign(new PassThrough(), { isTTY: true }),
        stdout: new PassThrough(),
        stderr: new PassThrough(),
        now: () => new Date(),
      });
    expect(await run(["get", "nope"])).toBe(3);
    expect(await run(["list"])).toBe(0);
    expect(loaded).toEqual([]);
    expect(await run(["store", "a", "alpha"])).toBe(0);
    expect(loaded).toEqual(["@claw/embeddings-openai"]);
    // The provider could not load: the store still works keyword-only.
    expect((await runInProcess(["-w", ws, "--json", "get", "a"])).code).toBe(0);
  });
});
