// /healthz (public), /metrics (tokens with every namespace) and /v1/status.
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { FastifyInstance } from "fastify";
import { namespaceSelection } from "../auth/namespace-scope.js";
import { renderMetrics } from "../metrics/server-metrics.js";
import { healthSchema, metricsSchema, statusSchema } from "../schemas/health-schemas.js";
import type { ServerContext } from "../server-context.js";

export function registerHealthRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const { memory } = ctx;

  api.get("/healthz", { schema: healthSchema, config: { access: "public" } }, async (_request, reply) => {
    const database = await memory.healthCheck();
    // NoneMemory (SQLite failed to open) is alive but not a working store.
    const ok = database && memory.name !== "none";
    reply.code(ok ? 200 : 503);
    return { status: ok ? ("ok" as const) : ("unavailable" as const), backend: memory.name, database };
  });

  api.get("/metrics", { schema: metricsSchema, config: { access: "unscoped" } }, async (_request, reply) => {
    reply.type("text/plain; version=0.0.4; charset=utf-8");
    return renderMetrics(ctx.metrics, memory);
  });

  api.get("/v1/status", { schema: statusSchema, config: { access: "read" } }, async (request) => {
    const status = await memory.status();
    const { namespace } = request.query;
    const selection = namespaceSelection(request.principal, namespace, "all");
    if (selection.all) return status;
    // Counts of other tenants, and where the files are, are not a scoped token's business.
    const counts = await Promise.all(selection.namespaces.map((ns) => memory.count({ namespace: ns })));
    const { path: _path, sizeBytes: _size, ...rest } = status;
    const unscoped = request.principal.namespaces === undefined;
    return {
      ...(unscoped ? status : rest),
      entries: counts.reduce((sum, n) => sum + n, 0),
      namespaces: counts.filter((n) => n > 0).length,
    };
  });
}
