// MCP over streamable HTTP, with the official client on a real socket.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it, onTestFinished } from "vitest";
import {
  ADMIN,
  bearer,
  errorOf,
  listeningServer,
  openMemory,
  TENANT_A_READER,
  testServer,
} from "../test-support/server-harness.js";

async function connect(url: string, token?: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
    requestInit: token === undefined ? {} : { headers: bearer(token) },
  });
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(transport);
  onTestFinished(() => client.close());
  return client;
}

function text(result: Awaited<ReturnType<Client["callTool"]>>): string {
  const [first] = result.content as Array<{ type: string; text: string }>;
  return first?.text ?? "";
}

describe("MCP over streamable HTTP", () => {
  it("lists the memory tools and runs them against the server's memory", async () => {
    const { url, memory } = await listeningServer();
    const client = await connect(url, ADMIN);
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

    const stored = await client.callTool({
      name: "memory_store",
      arguments: { key: "editor", content: "The user edits code in Helix" },
    });
    expect(stored.isError).toBeFalsy();
    expect((await memory.get("editor"))?.content).toBe("The user edits code in Helix");
    const found = await client.callTool({ name: "memory_search", arguments: { query: "which editor" } });
    expect(
      (found.structuredContent as { results: Array<{ key: string }> }).results.map((r) => r.key),
    ).toEqual(["editor"]);
  });

  it("searches through the server's recall (its recall workers when it runs some)", async () => {
    const memory = await openMemory();
    const asked: string[] = [];
    const { url } = await listeningServer({
      memory,
      recall: async (query, options) => {
        asked.push(query);
        return memory.recall(query, options);
      },
    });
    await memory.store("editor", "The user edits code in Helix");
    const client = await connect(url, ADMIN);
    const found = await client.callTool({ name: "memory_search", arguments: { query: "which editor" } });
    expect((found.structuredContent as { results: Array<{ key: string }> }).results[0]?.key).toBe("editor");
    expect(asked).toEqual(["which editor"]);
  });

  it("applies the token's scope: other namespaces and writes are refused for a read-only tenant", async () => {
    const { url, memory } = await listeningServer();
    await memory.store("secret", "tenant b data", { namespace: "tenant-b" });
    const client = await connect(url, TENANT_A_READER);
    const other = await client.callTool({
      name: "memory_get",
      arguments: { key: "secret", namespace: "tenant-b" },
    });
    expect(other.isError).toBe(true);
    expect(text(other)).toBe('FORBIDDEN: this token may not use the namespace "tenant-b"');
    const write = await client.callTool({ name: "memory_store", arguments: { key: "k", content: "v" } });
    expect(text(write)).toBe("FORBIDDEN: this token is read-only");
    expect(await memory.count({ namespace: "*" })).toBe(1);
  });

  it("records the token as the actor, and lists and restores versions over HTTP", async () => {
    const { url, memory } = await listeningServer();
    const client = await connect(url, ADMIN);
    await client.callTool({ name: "memory_store", arguments: { key: "tz", content: "Lisbon", ttl: "30d" } });
    await client.callTool({ name: "memory_store", arguments: { key: "tz", content: "Porto" } });
    const history = await client.callTool({ name: "memory_history", arguments: { key: "tz" } });
    expect(
      (
        history.structuredContent as { versions: Array<{ version: number; action: string; actor: string }> }
      ).versions.map((v) => [v.version, v.action, v.actor]),
    ).toEqual([
      [2, "update", "token:admin"],
      [1, "create", "token:admin"],
    ]);
    const restored = await client.callTool({ name: "memory_restore", arguments: { key: "tz", version: 1 } });
    expect(restored.structuredContent).toMatchObject({ content: "Lisbon" });
    expect((restored.structuredContent as { expiresAt?: string }).expiresAt).toBe(
      (await memory.history("tz"))[2]?.expiresAt,
    );
    expect((await memory.history("tz")).map((v) => [v.action, v.actor])).toEqual([
      ["restore", "token:admin"],
      ["update", "token:admin"],
      ["create", "token:admin"],
    ]);
  });

  it("refuses memory_restore to a read-only tenant and memory_history outside its namespaces", async () => {
    const { url, memory } = await listeningServer();
    await memory.store("secret", "tenant b v1", { namespace: "tenant-b" });
    await memory.store("secret", "tenant b v2", { namespace: "tenant-b" });
    await memory.store("mine", "tenant a v1", { namespace: "tenant-a" });
    await memory.store("mine", "tenant a v2", { namespace: "tenant-a" });
    const client = await connect(url, TENANT_A_READER);
    const other = await client.callTool({
      name: "memory_history",
      arguments: { key: "secret", namespace: "tenant-b" },
    });
    expect(text(other)).toBe('FORBIDDEN: this token may not use the namespace "tenant-b"');
    const restore = await client.callTool({ name: "memory_restore", arguments: { key: "mine", version: 1 } });
    expect(text(restore)).toBe("FORBIDDEN: this token is read-only");
    expect((await memory.get("mine", { namespace: "tenant-a" }))?.content).toBe("tenant a v2");
  });

  it("refuses a client without a token before any MCP message is read", async () => {
    const { url } = await listeningServer();
    await expect(connect(url)).rejects.toThrow(/UNAUTHORIZED/);
    const response = await fetch(`${url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      error: { code: "UNAUTHORIZED", message: "missing bearer token" },
    });
  });

  it("answers GET and DELETE with 405: the endpoint is stateless", async () => {
    const { app } = await testServer();
    const response = await app.inject({ method: "GET", url: "/mcp", headers: bearer(ADMIN) });
    expect(response.statusCode).toBe(405);
    expect(errorOf(response)).toEqual({
      code: "METHOD_NOT_ALLOWED",
      message: "this MCP endpoint is stateless: use POST",
    });
  });

  it("counts MCP requests in the metrics", async () => {
    const { url } = await listeningServer();
    const client = await connect(url, ADMIN);
    await client.listTools();
    const metrics = await (await fetch(`${url}/metrics`, { headers: bearer(ADMIN) })).text();
    expect(metrics).toMatch(
      /claw_memory_http_requests_total\{method="POST",route="\/mcp",status="200"\} [2-9]/,
    );
  });
});
