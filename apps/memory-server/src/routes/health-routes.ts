// /healthz (public), /metrics (tokens with every namespace) and /v1/status.
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { FastifyInstance } from "fastify";
import { namespaceSelection } from "../auth/namespace-scope.js";
import { renderMetrics } from "../metrics/server-metrics.js";
import { healthSchema, metricsSchema, statusSchema } from "../schemas/health-schemas.js";
import type { ServerContext } from "../server-context.js";

/** What a scoped token is told of damage: that it is there, not where the file is. */
const DAMAGED_FOR_TENANTS =
  "the store's database is damaged: writes are refused until the operator repairs it";

function withoutPaths<T extends { corrupt?: string; warnings?: string[] }>(status: T): T {
  if (status.corrupt === undefined) return status;
  const advice = status.corrupt;
  return {
    ...status,
    corrupt: DAMAGED_FOR_TENANTS,
    warnings: (status.warnings ?? []).map((warning) => (warning === advice ? DAMAGED_FOR_TENANTS : warning)),
  };
}

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
    const unscoped = request.principal.namespaces === undefined;
    const stored = await memory.status();
    // How the server is configured (its tokens) is the business of tokens with every namespace.
    const status =
      unscoped && ctx.warnings.length > 0
        ? { ...stored, warnings: [...(stored.warnings ?? []), ...ctx.warnings] }
        : stored;
    const { namespace } = request.query;
    const selection = namespaceSelection(request.principal, namespace, "all");
    if (selection.all) return status;
    // Counts of other tenants, and where the files are, are not a scoped token's business.
    const counts = await Promise.all(selection.namespaces.map((ns) => memory.count({ namespace: ns })));
    const { path: _path, sizeBytes: _size, ...rest } = status;
    return {
      ...(unscoped ? status : withoutPaths(rest)),
      entries: counts.reduce((sum, n) => sum + n, 0),
      namespaces: counts.filter((n) => n > 0).length,
    };
  });
}
