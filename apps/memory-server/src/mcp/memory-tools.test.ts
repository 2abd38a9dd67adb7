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

  it("declares metadata on memory_store and where on memory_search", async () => {
    const { client } = await connected();
    const { tools } = await client.listTools();
    const properties = (name: string) =>
      tools.find((t) => t.name === name)?.inputSchema.properties as Record<string, { type?: string }>;
    expect(properties("memory_store").metadata?.type).toBe("object");
    expect(properties("memory_search").where?.type).toBe("object");
  });

  it("stores metadata, searches with where, and returns metadata with the entries", async () => {
    const { client, memory } = await connected();
    const stored = await client.callTool({
      name: "memory_store",
      arguments: {
        key: "relay",
        content: "Relay rollout plan",
        metadata: { project: "alpha", priority: 3, owner: { team: "core" } },
      },
    });
    expect(stored.isError).toBeFalsy();
    expect((stored.structuredContent as { metadata: unknown }).metadata).toEqual({
      project: "alpha",
      priority: 3,
      owner: { team: "core" },
    });
    expect((await memory.get("relay"))?.metadata).toEqual({
      project: "alpha",
      priority: 3,
      owner: { team: "core" },
    });
    await memory.store("budget", "Relay budget", { metadata: { project: "beta", priority: 1 } });
    await memory.store("notes", "Relay notes");

    const search = async (where?: Record<string, unknown>) => {
      const found = await client.callTool({ name: "memory_search", arguments: { query: "relay", where } });
      expect(found.isError).toBeFalsy();
      return (found.structuredContent as { results: Array<{ key: string; metadata?: unknown }> }).results;
    };
    expect((await search()).map((r) => r.key).sort()).toEqual(["budget", "notes", "relay"]);
    expect(await search({ project: "alpha" })).toMatchObject([
      { key: "relay", metadata: { project: "alpha", priority: 3, owner: { team: "core" } } },
    ]);
    expect((await search({ priority: { $lt: 3 } })).map((r) => r.key)).toEqual(["budget"]);
    expect((await search({ "owner.team": "core", priority: { $gte: 2 } })).map((r) => r.key)).toEqual([
      "relay",
    ]);
    // An entry without metadata comes back without the field.
    const [notes] = await search({ project: { $exists: false } });
    expect(notes).not.toHaveProperty("metadata");
    expect(notes?.key).toBe("notes");

    const got = await client.callTool({ name: "memory_get", arguments: { key: "budget" } });
    expect(JSON.parse(text(got)).metadata).toEqual({ project: "beta", priority: 1 });
  });

  it("reports a where or metadata the memory refuses as an INVALID_INPUT tool error", async () => {
    const { client, memory } = await connected();
    const search = await client.callTool({
      name: "memory_search",
      arguments: { query: "relay", where: { project: { $like: "a%" } } },
    });
    expect(search.isError).toBe(true);
    expect(text(search)).toBe(
      "INVALID_INPUT: where.project.$like: unknown operator; expected one of $eq, $ne, $in, $nin, $gt, $gte, $lt, $lte, $exists",
    );
    const store = await client.callTool({
      name: "memory_store",
      arguments: {
        key: "k",
        content: "v",
        metadata: { tags: ["a", { deep: 1.5 }], size: "x".repeat(17_000) },
      },
    });
    expect(store.isError).toBe(true);
    expect(text(store)).toBe("INVALID_INPUT: metadata: is 17037 bytes as JSON, over the limit of 16384");
    expect(await memory.count()).toBe(0);
  });

  it("rejects bad arguments with the field named", async () => {
    const { client } = await connected();
    const result = await client.callTool({ name: "memory_store", arguments: { key: "", content: "x" } });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/key/);
  });
});
