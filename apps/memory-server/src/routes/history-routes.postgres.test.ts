// History, restore and expiry over HTTP on PostgreSQL (PGlite, and the server CLAW_MEMORY_PG_URL names).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it, onTestFinished } from "vitest";
import { forEachTestDatabase } from "../../../../packages/memory-postgres/src/test-support/test-database.js";
import { openTestMemory } from "../../../../packages/memory-postgres/src/test-support/test-memory.js";
import { ADMIN, bearer, listeningServer, TENANT_A, testServer } from "../test-support/server-harness.js";

forEachTestDatabase((database) => {
  describe("history, restore and expiry over HTTP on PostgreSQL", () => {
    it("records each token's changes, restores after a forget and purges what expired", async () => {
      const memory = await openTestMemory(database());
      const { app } = await testServer({ memory });
      const tenant = bearer(TENANT_A);
      const send = (method: "GET" | "POST" | "DELETE", url: string, payload?: object, headers = tenant) =>
        app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload }) });
      const ns = "tenant-a";
      await send("POST", "/v1/memories", { key: "plan", content: "ship on Monday", namespace: ns });
      await send("POST", "/v1/memories", { key: "plan", content: "ship on Friday", namespace: ns });
      expect((await send("DELETE", `/v1/memories/plan?namespace=${ns}`)).statusCode).toBe(200);
      const history = await send("GET", `/v1/memories/plan/history?namespace=${ns}`);
      expect(
        (
          history.json() as { versions: Array<{ version: number; action: string; actor: string }> }
        ).versions.map((v) => [v.version, v.action, v.actor]),
      ).toEqual([
        [3, "forget", "token:tenant-a"],
        [2, "update", "token:tenant-a"],
        [1, "create", "token:tenant-a"],
      ]);
      const restored = await send("POST", "/v1/memories/plan/restore", { version: 1, namespace: ns });
      expect(restored.statusCode).toBe(200);
      expect((restored.json() as { content: string }).content).toBe("ship on Monday");

      await memory.import([
        { key: "stale", content: "old offer", namespace: ns, expiresAt: "2020-01-01T00:00:00Z" },
      ]);
      expect((await send("GET", `/v1/memories/stale?namespace=${ns}`)).statusCode).toBe(404);
      const purged = await send("POST", "/v1/admin/purge-expired", {}, bearer(ADMIN));
      expect(purged.json()).toEqual({ removed: 1 });
      const expired = await send("GET", `/v1/memories/stale/history?namespace=${ns}`);
      expect(
        (expired.json() as { versions: Array<{ action: string; actor: string }> }).versions.map((v) => [
          v.action,
          v.actor,
        ]),
      ).toEqual([
        ["expire", "token:admin"],
        ["create", "library"],
      ]);
    });

    it("filters by metadata and serves history and restore through the MCP tools", async () => {
      const memory = await openTestMemory(database());
      const { url } = await listeningServer({ memory });
      const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
        requestInit: { headers: bearer(ADMIN) },
      });
      const client = new Client({ name: "test", version: "1.0.0" });
      await client.connect(transport);
      onTestFinished(() => client.close());
      const call = async (name: string, args: Record<string, unknown>) => {
        const result = await client.callTool({ name, arguments: args });
        expect(result.isError).toBeFalsy();
        return result.structuredContent as Record<string, unknown>;
      };
      await call("memory_store", {
        key: "deploy",
        content: "deploys need approval",
        metadata: { project: "alpha" },
      });
      await call("memory_store", {
        key: "deploy-b",
        content: "deploys run nightly",
        metadata: { project: "beta" },
      });
      await call("memory_store", {
        key: "deploy",
        content: "deploys need two approvals",
        metadata: { project: "alpha" },
      });
      const found = await call("memory_search", { query: "deploys", where: { project: "alpha" } });
      expect((found.results as Array<{ key: string }>).map((r) => r.key)).toEqual(["deploy"]);
      const history = await call("memory_history", { key: "deploy" });
      expect(
        (history.versions as Array<{ version: number; action: string; actor: string }>).map((v) => [
          v.version,
          v.action,
          v.actor,
        ]),
      ).toEqual([
        [2, "update", "token:admin"],
        [1, "create", "token:admin"],
      ]);
      await call("memory_restore", { key: "deploy", version: 1 });
      expect((await memory.get("deploy"))?.content).toBe("deploys need approval");
    });
  });
});
