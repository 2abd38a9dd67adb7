import { describe, expect, it } from "vitest";
import { ADMIN, bearer, testServer } from "../test-support/server-harness.js";

/** Every route CONTRACT §5 names, plus the MCP methods a stateless endpoint answers. */
const CONTRACT_ROUTES = [
  "POST /v1/memories",
  "GET /v1/memories/{key}",
  "DELETE /v1/memories/{key}",
  "GET /v1/memories/{key}/history",
  "POST /v1/memories/{key}/restore",
  "GET /v1/memories",
  "POST /v1/recall",
  "POST /v1/context",
  "DELETE /v1/namespaces/{ns}",
  "DELETE /v1/sessions/{id}",
  "GET /v1/export",
  "POST /v1/import",
  "GET /v1/status",
  "POST /v1/admin/reindex",
  "POST /v1/admin/backfill",
  "POST /v1/admin/hygiene",
  "POST /v1/admin/purge-expired",
  "POST /v1/admin/snapshot",
  "POST /v1/admin/backup",
  "POST /v1/admin/doctor",
  "POST /v1/admin/consolidate",
  "POST /v1/admin/curate",
  "GET /healthz",
  "GET /metrics",
  "GET /openapi.json",
  "GET /docs",
  "POST /mcp",
  "GET /mcp",
  "DELETE /mcp",
];

describe("OpenAPI document", () => {
  it("lists every route, each with a summary and responses", async () => {
    const { app } = await testServer();
    const response = await app.inject({ method: "GET", url: "/openapi.json", headers: bearer(ADMIN) });
    expect(response.statusCode).toBe(200);
    const doc = response.json();
    expect(doc.openapi).toBe("3.1.0");
    const operations = Object.entries(
      doc.paths as Record<string, Record<string, { summary?: string }>>,
    ).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({ route: `${method.toUpperCase()} ${path}`, op })),
    );
    expect(operations.map((o) => o.route).sort()).toEqual([...CONTRACT_ROUTES].sort());
    for (const { route, op } of operations) {
      expect(typeof op.summary, route).toBe("string");
      expect(Object.keys((op as { responses: object }).responses).length, route).toBeGreaterThan(0);
    }
  });

  it("documents parameters, bodies and responses from the schemas fastify validates with", async () => {
    const { app } = await testServer();
    const doc = (await app.inject({ method: "GET", url: "/openapi.json", headers: bearer(ADMIN) })).json();
    const get = doc.paths["/v1/memories/{key}"].get;
    expect(get.parameters).toEqual([
      expect.objectContaining({ name: "key", in: "path", required: true }),
      expect.objectContaining({ name: "namespace", in: "query", required: false }),
    ]);
    expect(get.responses["200"].content["application/json"].schema.required).toEqual(
      expect.arrayContaining(["id", "key", "content", "namespace", "createdAt"]),
    );
    expect(get.responses["404"].content["application/json"].schema.properties.error.required).toEqual([
      "code",
      "message",
    ]);
    const store = doc.paths["/v1/memories"].post;
    expect(store.requestBody.content["application/json"].schema.required).toEqual(["key", "content"]);
    expect(store["x-access"]).toBe("write");
    expect(doc.paths["/v1/import"].post.requestBody.content).toHaveProperty("application/x-ndjson");
    expect(doc.paths["/v1/export"].get.responses["200"].content).toHaveProperty("application/x-ndjson");
    const backup = doc.paths["/v1/admin/backup"].post;
    expect(backup["x-access"]).toBe("admin");
    expect(Object.keys(backup.responses["200"].content)).toEqual([
      "application/vnd.sqlite3",
      "application/x-ndjson",
    ]);
    expect(doc.paths["/healthz"].get.security).toEqual([]);
    expect(doc.components.securitySchemes.bearer).toEqual({ type: "http", scheme: "bearer" });
    // TypeBox's internal markers never reach the document.
    expect(JSON.stringify(doc)).not.toContain("~kind");
  });

  it("documents history, restore and expiry", async () => {
    const { app } = await testServer();
    const doc = (await app.inject({ method: "GET", url: "/openapi.json", headers: bearer(ADMIN) })).json();
    const json = (op: { responses: Record<string, { content: Record<string, { schema: unknown }> }> }) =>
      op.responses["200"]?.content["application/json"]?.schema as {
        properties: Record<string, Record<string, unknown>>;
        required?: string[];
      };

    const store = doc.paths["/v1/memories"].post;
    const storeBody = store.requestBody.content["application/json"].schema;
    expect(storeBody.properties.expiresAt).toMatchObject({ type: "string", format: "date-time" });
    expect(storeBody.properties.ttl).toMatchObject({ type: "string" });
    expect(storeBody.properties.ttl.description).toContain('"7d"');
    expect(storeBody.required).toEqual(["key", "content"]);
    expect(json(store).properties.expiresAt).toMatchObject({ type: "string" });
    expect(json(store).required).not.toContain("expiresAt");

    const history = doc.paths["/v1/memories/{key}/history"].get;
    expect(history["x-access"]).toBe("read");
    expect(history.parameters).toEqual([
      expect.objectContaining({ name: "key", in: "path", required: true }),
      expect.objectContaining({ name: "namespace", in: "query", required: false }),
      expect.objectContaining({ name: "limit", in: "query", required: false }),
    ]);
    const versions = json(history).properties.versions as {
      items: { properties: Record<string, { anyOf?: Array<{ const: string }> }>; required: string[] };
    };
    expect(json(history).required).toEqual(["versions"]);
    expect(versions.items.required).toEqual([
      "version",
      "at",
      "action",
      "actor",
      "current",
      "deleted",
      "id",
      "key",
      "namespace",
      "content",
      "category",
    ]);
    expect(versions.items.properties.action?.anyOf?.map((a) => a.const)).toEqual([
      "create",
      "update",
      "supersede",
      "forget",
      "restore",
      "merge",
      "prune",
      "expire",
    ]);
    expect(Object.keys(versions.items.properties)).toEqual(
      expect.arrayContaining(["metadata", "expiresAt", "supersededBy", "sessionId", "source"]),
    );

    const restore = doc.paths["/v1/memories/{key}/restore"].post;
    expect(restore["x-access"]).toBe("write");
    const restoreBody = restore.requestBody.content["application/json"].schema;
    expect(restoreBody.required).toEqual(["version"]);
    expect(restoreBody.properties.version).toMatchObject({ type: "integer", minimum: 1 });
    expect(restoreBody.additionalProperties).toBe(false);
    expect(json(restore).required).toEqual(expect.arrayContaining(["id", "key", "content"]));
    expect(Object.keys(restore.responses)).toEqual(expect.arrayContaining(["200", "400", "403", "404"]));

    const purge = doc.paths["/v1/admin/purge-expired"].post;
    expect(purge["x-access"]).toBe("admin");
    expect(json(purge).properties.removed).toMatchObject({ type: "integer" });
    expect(json(doc.paths["/v1/admin/hygiene"].post).properties.expired).toMatchObject({ type: "integer" });
  });

  it("serves a static docs page without a token", async () => {
    const { app } = await testServer();
    const response = await app.inject({ method: "GET", url: "/docs" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(response.headers["content-security-policy"]).toContain("default-src 'none'");
    expect(response.body).toContain('fetch("openapi.json"');
  });
});
