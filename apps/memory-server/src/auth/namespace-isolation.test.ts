import type { Memory } from "@claw/memory-api";
import type { InjectOptions } from "fastify";
import { describe, expect, it } from "vitest";
import {
  ADMIN,
  bearer,
  errorOf,
  READER,
  TENANT_A,
  TENANT_A_READER,
  testServer,
} from "../test-support/server-harness.js";

const B = "tenant-b";
const ndjson = { "content-type": "application/x-ndjson" };

/** Every route that can name a namespace, asked about tenant B. */
const ROUTES_FOR_B: ReadonlyArray<{ name: string; request: InjectOptions }> = [
  {
    name: "store",
    request: { method: "POST", url: "/v1/memories", payload: { key: "x", content: "y", namespace: B } },
  },
  { name: "get", request: { method: "GET", url: `/v1/memories/secret?namespace=${B}` } },
  { name: "forget", request: { method: "DELETE", url: `/v1/memories/secret?namespace=${B}` } },
  { name: "history", request: { method: "GET", url: `/v1/memories/secret/history?namespace=${B}` } },
  {
    name: "restore",
    request: { method: "POST", url: "/v1/memories/secret/restore", payload: { version: 1, namespace: B } },
  },
  { name: "list", request: { method: "GET", url: `/v1/memories?namespace=${B}` } },
  {
    name: "recall",
    request: { method: "POST", url: "/v1/recall", payload: { query: "secret", namespace: B } },
  },
  {
    name: "context",
    request: { method: "POST", url: "/v1/context", payload: { message: "secret", namespace: B } },
  },
  { name: "purge namespace", request: { method: "DELETE", url: `/v1/namespaces/${B}` } },
  { name: "purge session", request: { method: "DELETE", url: `/v1/sessions/s1?namespace=${B}` } },
  { name: "export", request: { method: "GET", url: `/v1/export?namespace=${B}` } },
  {
    name: "import",
    request: {
      method: "POST",
      url: `/v1/import?namespace=${B}`,
      headers: ndjson,
      payload: '{"key":"x","content":"y"}\n',
    },
  },
  { name: "status", request: { method: "GET", url: `/v1/status?namespace=${B}` } },
  {
    name: "consolidate",
    request: {
      method: "POST",
      url: "/v1/admin/consolidate",
      payload: { user: "I always use vim", namespace: B },
    },
  },
  { name: "curate", request: { method: "POST", url: "/v1/admin/curate", payload: { namespace: B } } },
  { name: "reindex", request: { method: "POST", url: "/v1/admin/reindex" } },
  { name: "backfill", request: { method: "POST", url: "/v1/admin/backfill" } },
  { name: "hygiene", request: { method: "POST", url: "/v1/admin/hygiene", payload: { force: true } } },
  { name: "purge expired", request: { method: "POST", url: "/v1/admin/purge-expired" } },
  { name: "snapshot", request: { method: "POST", url: "/v1/admin/snapshot" } },
  { name: "backup", request: { method: "POST", url: "/v1/admin/backup" } },
  { name: "doctor", request: { method: "POST", url: "/v1/admin/doctor" } },
  { name: "metrics", request: { method: "GET", url: "/metrics" } },
];

/** Every route that writes, with a namespace the read-only token could otherwise read. */
const WRITE_ROUTES: ReadonlyArray<{ name: string; request: InjectOptions }> = [
  { name: "store", request: { method: "POST", url: "/v1/memories", payload: { key: "x", content: "y" } } },
  { name: "forget", request: { method: "DELETE", url: "/v1/memories/secret?namespace=tenant-b" } },
  {
    name: "restore",
    request: {
      method: "POST",
      url: "/v1/memories/secret/restore",
      payload: { version: 1, namespace: "tenant-b" },
    },
  },
  { name: "purge namespace", request: { method: "DELETE", url: "/v1/namespaces/tenant-b" } },
  { name: "purge session", request: { method: "DELETE", url: "/v1/sessions/s1" } },
  {
    name: "import",
    request: { method: "POST", url: "/v1/import", headers: ndjson, payload: '{"key":"x","content":"y"}\n' },
  },
  {
    name: "consolidate",
    request: { method: "POST", url: "/v1/admin/consolidate", payload: { user: "I always use vim" } },
  },
  { name: "curate", request: { method: "POST", url: "/v1/admin/curate", payload: {} } },
  { name: "reindex", request: { method: "POST", url: "/v1/admin/reindex" } },
  { name: "backfill", request: { method: "POST", url: "/v1/admin/backfill" } },
  { name: "hygiene", request: { method: "POST", url: "/v1/admin/hygiene" } },
  { name: "purge expired", request: { method: "POST", url: "/v1/admin/purge-expired" } },
  { name: "snapshot", request: { method: "POST", url: "/v1/admin/snapshot" } },
  { name: "backup", request: { method: "POST", url: "/v1/admin/backup" } },
  { name: "doctor", request: { method: "POST", url: "/v1/admin/doctor" } },
];

async function seededB(memory: Memory): Promise<void> {
  await memory.store("secret", "tenant b secret", { namespace: B, sessionId: "s1", category: "daily" });
}

async function snapshotOf(memory: Memory): Promise<string> {
  const entries = await memory.export();
  return JSON.stringify(entries.map((e) => [e.namespace, e.key, e.content, e.updatedAt]));
}

describe("namespace isolation", () => {
  it.each(ROUTES_FOR_B)(
    "a token for tenant-a gets 403 on $name for tenant-b, and B is untouched",
    async ({ request }) => {
      const { app, memory } = await testServer({
        generator: { generate: async () => '{"delete":["secret"]}' },
      });
      await seededB(memory);
      const before = await snapshotOf(memory);
      const headers = { ...bearer(TENANT_A), ...(request.headers as Record<string, string> | undefined) };
      const response = await app.inject({ ...request, headers });
      expect(response.statusCode).toBe(403);
      expect(errorOf(response).code).toBe("FORBIDDEN");
      expect(response.body).not.toContain("tenant b secret");
      expect(await snapshotOf(memory)).toBe(before);
    },
  );

  it("reads nothing of tenant-b through '*' (recall, list, export) or the status counts", async () => {
    const { app, memory } = await testServer();
    await seededB(memory);
    await memory.store("mine", "tenant a secret note", { namespace: "tenant-a" });
    const headers = bearer(TENANT_A);
    const recall = await app.inject({
      method: "POST",
      url: "/v1/recall",
      headers,
      payload: { query: "secret", namespace: "*" },
    });
    expect(recall.json().results.map((e: { key: string }) => e.key)).toEqual(["mine"]);
    const list = await app.inject({ method: "GET", url: "/v1/memories?namespace=*", headers });
    expect(list.json().entries.map((e: { key: string }) => e.key)).toEqual(["mine"]);
    const exported = await app.inject({ method: "GET", url: "/v1/export", headers });
    expect(
      exported.body
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line).key),
    ).toEqual(["mine"]);
    const status = await app.inject({ method: "GET", url: "/v1/status", headers });
    expect(status.json()).toMatchObject({ entries: 1, namespaces: 1 });
    expect(status.json().path).toBeUndefined();
  });

  it("refuses import lines naming another namespace, by line number, and writes only its own", async () => {
    const { app, memory } = await testServer();
    const payload = [
      JSON.stringify({ key: "ok", content: "mine" }),
      JSON.stringify({ key: "bad", content: "theirs", namespace: B }),
    ].join("\n");
    const response = await app.inject({
      method: "POST",
      url: "/v1/import",
      headers: { ...bearer(TENANT_A), ...ndjson },
      payload,
    });
    expect(response.json()).toMatchObject({
      imported: 1,
      rejected: 1,
      errors: [{ line: 2, code: "FORBIDDEN", message: 'this token may not use the namespace "tenant-b"' }],
    });
    expect(await memory.count({ namespace: B })).toBe(0);
    expect((await memory.get("ok", { namespace: "tenant-a" }))?.content).toBe("mine");
  });

  it.each(WRITE_ROUTES)("a read-only token gets 403 on $name", async ({ request }) => {
    const { app, memory } = await testServer();
    await seededB(memory);
    const before = await snapshotOf(memory);
    for (const token of [READER, TENANT_A_READER]) {
      const headers = { ...bearer(token), ...(request.headers as Record<string, string> | undefined) };
      const response = await app.inject({ ...request, headers });
      expect(response.statusCode).toBe(403);
      expect(errorOf(response).code).toBe("FORBIDDEN");
    }
    expect(await snapshotOf(memory)).toBe(before);
  });

  it("lets a read-only token read", async () => {
    const { app, memory } = await testServer();
    await seededB(memory);
    const response = await app.inject({
      method: "GET",
      url: `/v1/memories/secret?namespace=${B}`,
      headers: bearer(READER),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().content).toBe("tenant b secret");
  });

  it("covers every route of the API in the table above (new routes need an isolation case)", async () => {
    const { app } = await testServer();
    const doc = (await app.inject({ method: "GET", url: "/openapi.json", headers: bearer(ADMIN) })).json();
    const documented = Object.entries(doc.paths as Record<string, object>).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const key = (r: InjectOptions) => `${r.method} ${(r.url as string).split("?")[0]}`;
    const covered = new Set(ROUTES_FOR_B.map((r) => key(r.request)));
    // Namespace-free routes: public, or documents; /mcp is covered by the MCP tests.
    const exempt = new Set([
      "GET /healthz",
      "GET /docs",
      "GET /openapi.json",
      "POST /mcp",
      "GET /mcp",
      "DELETE /mcp",
    ]);
    const normalise = (route: string) =>
      route.replace("{key}", "secret").replace("{ns}", B).replace("{id}", "s1");
    expect(documented.map(normalise).filter((r) => !exempt.has(r) && !covered.has(r))).toEqual([]);
  });

  it("keeps admin routes to tokens with every namespace", async () => {
    const { app } = await testServer();
    const scoped = await app.inject({ method: "POST", url: "/v1/admin/reindex", headers: bearer(TENANT_A) });
    expect(errorOf(scoped)).toEqual({
      code: "FORBIDDEN",
      message: "this operation needs a token that is not scoped to namespaces",
    });
    const admin = await app.inject({ method: "POST", url: "/v1/admin/reindex", headers: bearer(ADMIN) });
    expect(admin.json()).toEqual({ entries: 0 });
  });
});
