import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Memory } from "@claw/memory-api";
import { createMemory } from "@claw/memory-core";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { describe, expect, it, onTestFinished } from "vitest";
import { createMemoryMcpServer, type ToolScope } from "./memory-tools.js";

async function connected(scope?: ToolScope, actor?: string): Promise<{ client: Client; memory: Memory }> {
  const dir = mkdtempSync(join(tmpdir(), "claw-mcp-test-"));
  const memory = await createMemory({ workspaceDir: dir, embeddings: null });
  const server = createMemoryMcpServer(memory, { scope, ...(actor === undefined ? {} : { actor }) });
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
  it("lists the seven tools", async () => {
    const { client } = await connected();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      "memory_context",
      "memory_forget",
      "memory_get",
      "memory_history",
      "memory_restore",
      "memory_search",
      "memory_store",
    ]);
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.get("memory_history")?.annotations?.readOnlyHint).toBe(true);
    expect(byName.get("memory_restore")?.annotations?.readOnlyHint).toBeUndefined();
    expect(byName.get("memory_history")?.inputSchema.required).toEqual(["key"]);
    expect(byName.get("memory_restore")?.inputSchema.required).toEqual(["key", "version"]);
    const store = byName.get("memory_store")?.inputSchema.properties as Record<string, { type?: string }>;
    expect(store.ttl?.type).toBe("string");
    expect(store.expiresAt?.type).toBe("string");
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

  it("memory_history lists the versions and memory_restore brings version 1 back after a forget", async () => {
    const { client, memory } = await connected(undefined, "token:agent");
    const call = async (name: string, args: Record<string, unknown>) => {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, text(result)).toBeFalsy();
      return result.structuredContent as Record<string, unknown>;
    };
    await call("memory_store", {
      key: "tz",
      content: "The user lives in Lisbon",
      metadata: { from: "chat" },
    });
    await call("memory_store", { key: "tz", content: "The user lives in Porto" });
    await call("memory_forget", { key: "tz" });
    expect(await memory.get("tz")).toBeNull();

    type Version = { version: number; action: string; actor: string; deleted: boolean; content: string };
    const history = async (args: Record<string, unknown>) =>
      ((await call("memory_history", args)).versions as Version[]).map((v) => [
        v.version,
        v.action,
        v.actor,
        v.deleted,
        v.content,
      ]);
    expect(await history({ key: "tz" })).toEqual([
      [3, "forget", "token:agent", true, "The user lives in Porto"],
      [2, "update", "token:agent", false, "The user lives in Porto"],
      [1, "create", "token:agent", false, "The user lives in Lisbon"],
    ]);
    expect(await history({ key: "tz", limit: 1 })).toEqual([
      [3, "forget", "token:agent", true, "The user lives in Porto"],
    ]);
    expect(await history({ key: "never-stored" })).toEqual([]);

    const restored = await call("memory_restore", { key: "tz", version: 1 });
    expect(restored).toMatchObject({
      key: "tz",
      namespace: "default",
      content: "The user lives in Lisbon",
      metadata: { from: "chat" },
    });
    expect((await memory.get("tz"))?.content).toBe("The user lives in Lisbon");
    expect((await history({ key: "tz" }))[0]).toEqual([
      4,
      "restore",
      "token:agent",
      false,
      "The user lives in Lisbon",
    ]);
  });

  it("reports a tombstone, an unknown version and a bad version as tool errors", async () => {
    const { client, memory } = await connected();
    await memory.store("k", "one");
    await memory.forget("k");
    const restore = (version: unknown) =>
      client.callTool({ name: "memory_restore", arguments: { key: "k", version } });
    const tombstone = await restore(2);
    expect(tombstone.isError).toBe(true);
    expect(text(tombstone)).toBe(
      "INVALID_INPUT: version: version 2 records a deletion (forget); restore the version before it",
    );
    const unknown = await restore(7);
    expect(text(unknown)).toBe('NOT_FOUND: no version 7 of "k" is kept in namespace "default"');
    const zero = await restore(0);
    expect(zero.isError).toBe(true);
    expect(text(zero)).toMatch(/version/);
    expect(await memory.get("k")).toBeNull();
    // Without an actor the memory's own is recorded (claw-memory mcp on stdio).
    expect((await memory.history("k")).map((v) => v.actor)).toEqual(["library", "library"]);
  });

  it("keeps history and restore inside the scope: no other namespace, no restore when read-only", async () => {
    const { client, memory } = await connected({ namespaces: ["tenant-a"], readOnly: true });
    await memory.store("secret", "tenant b v1", { namespace: "tenant-b" });
    await memory.store("secret", "tenant b v2", { namespace: "tenant-b" });
    await memory.store("mine", "tenant a v1", { namespace: "tenant-a" });
    await memory.store("mine", "tenant a v2", { namespace: "tenant-a" });

    const other = await client.callTool({
      name: "memory_history",
      arguments: { key: "secret", namespace: "tenant-b" },
    });
    expect(text(other)).toBe('FORBIDDEN: this token may not use the namespace "tenant-b"');
    const own = await client.callTool({ name: "memory_history", arguments: { key: "mine" } });
    expect(
      (own.structuredContent as { versions: Array<{ content: string }> }).versions.map((v) => v.content),
    ).toEqual(["tenant a v2", "tenant a v1"]);
    const restore = await client.callTool({ name: "memory_restore", arguments: { key: "mine", version: 1 } });
    expect(text(restore)).toBe("FORBIDDEN: this token is read-only");
    expect((await memory.get("mine", { namespace: "tenant-a" }))?.content).toBe("tenant a v2");

    const writer = await connected({ namespaces: ["tenant-a"] });
    await writer.memory.store("secret", "tenant b v1", { namespace: "tenant-b" });
    await writer.memory.store("secret", "tenant b v2", { namespace: "tenant-b" });
    const away = await writer.client.callTool({
      name: "memory_restore",
      arguments: { key: "secret", version: 1, namespace: "tenant-b" },
    });
    expect(text(away)).toBe('FORBIDDEN: this token may not use the namespace "tenant-b"');
    expect((await writer.memory.get("secret", { namespace: "tenant-b" }))?.content).toBe("tenant b v2");
  });

  it("stores an expiry from ttl or expiresAt, and refuses a bad one naming the field", async () => {
    const { client, memory } = await connected();
    const stored = await client.callTool({
      name: "memory_store",
      arguments: { key: "trip", content: "The user is in Tokyo this week", ttl: "2w" },
    });
    expect(stored.isError).toBeFalsy();
    const value = stored.structuredContent as { expiresAt: string; updatedAt: string };
    expect(Date.parse(value.expiresAt) - Date.parse(value.updatedAt)).toBe(14 * 86_400_000);
    expect((await memory.get("trip"))?.expiresAt).toBe(value.expiresAt);
    const got = await client.callTool({ name: "memory_get", arguments: { key: "trip" } });
    expect(JSON.parse(text(got)).expiresAt).toBe(value.expiresAt);

    const dated = await client.callTool({
      name: "memory_store",
      arguments: { key: "visa", content: "Visa valid until 2099", expiresAt: "2099-03-01T00:00:00Z" },
    });
    expect((dated.structuredContent as { expiresAt: string }).expiresAt).toBe("2099-03-01T00:00:00.000Z");
    const permanent = await client.callTool({
      name: "memory_store",
      arguments: { key: "home", content: "Lisbon" },
    });
    expect(permanent.structuredContent).not.toHaveProperty("expiresAt");

    const bad = await client.callTool({
      name: "memory_store",
      arguments: { key: "k", content: "v", ttl: "a while" },
    });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toBe('INVALID_INPUT: ttl: expected an age such as "30m", "12h", "7d", "2w" or "1y"');
    const both = await client.callTool({
      name: "memory_store",
      arguments: { key: "k", content: "v", ttl: "1d", expiresAt: "2099-03-01T00:00:00Z" },
    });
    expect(text(both)).toBe("INVALID_INPUT: ttl: give expiresAt or ttl, not both");
    const past = await client.callTool({
      name: "memory_store",
      arguments: { key: "k", content: "v", expiresAt: "2001-01-01T00:00:00Z" },
    });
    expect(text(past)).toMatch(/^INVALID_INPUT: expiresAt: is not in the future/);
    expect(await memory.get("k")).toBeNull();
  });

  it("rejects bad arguments with the field named", async () => {
    const { client } = await connected();
    const result = await client.callTool({ name: "memory_store", arguments: { key: "", content: "x" } });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/key/);
  });
});
