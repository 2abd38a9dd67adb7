import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Memory } from "@claw/memory-api";
import { createMemory } from "@claw/memory-core";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { describe, expect, it, onTestFinished } from "vitest";
import { createMemoryMcpServer, type ToolScope } from "./memory-tools.js";

async function connected(scope?: ToolScope): Promise<{ client: Client; memory: Memory }> {
  const dir = mkdtempSync(join(tmpdir(), "claw-mcp-test-"));
  const memory = await createMemory({ workspaceDir: dir, embeddings: null });
  const server = createMemoryMcpServer(memory, { scope });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "test", version: "1.0.0" });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  onTestFinished(async () => {
    await client.close();
    await memory.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { client, memory };
}

function text(result: Awaited<ReturnType<Client["callTool"]>>): string {
  const [first] = result.content as Array<{ type: string; text: string }>;
  return first?.text ?? "";
}

describe("memory MCP tools (official client)", () => {
  it("lists the five tools", async () => {
    const { client } = await connected();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      "memory_context",
      "memory_forget",
      "memory_get",
      "memory_search",
      "memory_store",
    ]);
  });

  it("memory_context returns the stable core block and the recall block", async () => {
    const { client, memory } = await connected();
    await memory.store("tz", "The user lives in Lisbon");
    await memory.store("standup", "Standup moved to 9:30", { category: "daily" });
    const result = await client.callTool({
      name: "memory_context",
      arguments: { message: "standup in Lisbon?" },
    });
    const value = result.structuredContent as {
      stable: { text: string };
      recall: { text: string; keys: string[] };
    };
    expect(value.stable.text).toBe("## What you remember about the user\n- The user lives in Lisbon");
    expect(value.recall.keys).toEqual(["standup"]);
    expect(value.recall.text.startsWith("[memory context]\n")).toBe(true);
  });

  it("stores, searches, gets and forgets", async () => {
    const { client, memory } = await connected();
    const stored = await client.callTool({
      name: "memory_store",
      arguments: { key: "tz", content: "The user lives in Lisbon (UTC+0)" },
    });
    expect(stored.isError).toBeFalsy();
    expect((await memory.get("tz"))?.content).toBe("The user lives in Lisbon (UTC+0)");

    const found = await client.callTool({
      name: "memory_search",
      arguments: { query: "where does the user live" },
    });
    const results = (found.structuredContent as { results: Array<{ key: string }> }).results;
    expect(results.map((r) => r.key)).toEqual(["tz"]);

    const got = await client.callTool({ name: "memory_get", arguments: { key: "tz" } });
    expect(JSON.parse(text(got)).content).toBe("The user lives in Lisbon (UTC+0)");

    const forgot = await client.callTool({ name: "memory_forget", arguments: { key: "tz" } });
    expect(JSON.parse(text(forgot))).toEqual({ key: "tz", removed: true });
    expect(await memory.count()).toBe(0);
  });

  it("reports a missing key as a NOT_FOUND tool error", async () => {
    const { client } = await connected();
    const result = await client.callTool({ name: "memory_get", arguments: { key: "nope" } });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe('NOT_FOUND: no memory with key "nope"');
  });

  it("keeps a scoped caller inside its namespaces and out of writes when read-only", async () => {
    const { client, memory } = await connected({ namespaces: ["tenant-a"], readOnly: true });
    await memory.store("secret", "tenant b data", { namespace: "tenant-b" });

    const other = await client.callTool({
      name: "memory_get",
      arguments: { key: "secret", namespace: "tenant-b" },
    });
    expect(text(other)).toBe('FORBIDDEN: this token may not use the namespace "tenant-b"');
    const write = await client.callTool({ name: "memory_store", arguments: { key: "k", content: "v" } });
    expect(text(write)).toBe("FORBIDDEN: this token is read-only");
    // Without a namespace the scoped caller lands in its own, not in "default".
    const search = await client.callTool({ name: "memory_search", arguments: { query: "tenant" } });
    expect((search.structuredContent as { results: unknown[] }).results).toEqual([]);
    expect(await memory.count()).toBe(1);
  });

  it("rejects bad arguments with the field named", async () => {
    const { client } = await connected();
    const result = await client.callTool({ name: "memory_store", arguments: { key: "", content: "x" } });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/key/);
  });
});
