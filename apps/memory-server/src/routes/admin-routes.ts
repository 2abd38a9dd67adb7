// POST /v1/admin/*: maintenance (reindex, backfill, hygiene, purge-expired, snapshot, backup) for admin
// tokens, and the lifecycle calls (consolidate, curate) for writable tokens within their namespaces.
import { dirname } from "node:path";
import type { CurateReport } from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";
import { memoryContextOf } from "@claw/memory-core";
import { consolidateTurn, curate, exportSnapshot, runHygiene } from "@claw/memory-lifecycle";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { FastifyInstance } from "fastify";
import { namespaceSelection, singleNamespace } from "../auth/namespace-scope.js";
import { requestActor } from "../auth/request-actor.js";
import {
  backfillSchema,
  consolidateSchema,
  curateSchema,
  hygieneSchema,
  purgeExpiredSchema,
  reindexSchema,
  snapshotSchema,
} from "../schemas/admin-schemas.js";
import { entryJson, type ServerContext } from "../server-context.js";
import { registerBackupRoute } from "./backup-route.js";
import { registerDoctorRoute } from "./doctor-route.js";
import { emptyBodyIsObject } from "./empty-body.js";

export function registerAdminRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const { memory } = ctx;
  const admin = { config: { access: "admin" as const }, preValidation: emptyBodyIsObject };
  const write = { config: { access: "write" as const }, preValidation: emptyBodyIsObject };

  api.post("/v1/admin/reindex", { ...admin, schema: reindexSchema }, async () => ({
    entries: await memory.reindex(),
  }));

  api.post("/v1/admin/backfill", { ...admin, schema: backfillSchema }, async (request) => ({
    embedded: await memory.backfillEmbeddings(request.body.batchSize),
  }));

  api.post("/v1/admin/hygiene", { ...admin, schema: hygieneSchema }, async (request) =>
    runHygiene(memory, { force: request.body.force }),
  );

  api.post("/v1/admin/purge-expired", { ...admin, schema: purgeExpiredSchema }, async (request) => ({
    removed: await memory.purgeExpired({ actor: requestActor(request.principal) }),
  }));

  api.post("/v1/admin/snapshot", { ...admin, schema: snapshotSchema }, async () => {
    const workspaceDir = memoryContextOf(memory)?.workspaceDir ?? (await databaseFolder(ctx));
    return exportSnapshot(memory, workspaceDir);
  });

  registerBackupRoute(app, ctx);
  registerDoctorRoute(app, ctx);

  api.post("/v1/admin/consolidate", { ...write, schema: consolidateSchema }, async (request) => {
    const { namespace, ...turn } = request.body;
    const result = await consolidateTurn(memory, turn, {
      namespace: singleNamespace(request.principal, namespace),
    });
    return {
      ...result,
      daily: result.daily === null ? null : entryJson(result.daily),
      core: result.core === null ? null : entryJson(result.core),
    };
  });

  api.post("/v1/admin/curate", { ...write, schema: curateSchema }, async (request) => {
    const generator = ctx.generator ?? memoryContextOf(memory)?.generator;
    if (generator === undefined) {
      throw new MemoryError(
        "UNAVAILABLE",
        "the curator has no text generator: set curator_provider and its API key (e.g. OPENAI_API_KEY)",
      );
    }
    const { namespace, ...options } = request.body;
    const selection = namespaceSelection(request.principal, namespace, "all");
    if (selection.all) return curate(memory, generator, options);
    // A scoped token curates each of its namespaces on its own.
    const reports: CurateReport[] = [];
    for (const ns of selection.namespaces)
      reports.push(await curate(memory, generator, { ...options, namespace: ns }));
    return mergeReports(reports, options.dryRun === true);
  });
}

async function databaseFolder(ctx: ServerContext): Promise<string> {
  const path = (await ctx.memory.status()).path;
  if (path === undefined)
    throw new MemoryError("UNAVAILABLE", "this store has no workspace to snapshot into");
  return dirname(path);
}

function mergeReports(reports: readonly CurateReport[], dryRun: boolean): CurateReport {
  return {
    deleted: reports.flatMap((r) => r.deleted),
    merged: reports.flatMap((r) => r.merged),
    totalBefore: reports.reduce((sum, r) => sum + r.totalBefore, 0),
    totalAfter: reports.reduce((sum, r) => sum + r.totalAfter, 0),
    dryRun,
    refused: reports.flatMap((r) => r.refused),
    errors: reports.flatMap((r) => r.errors),
  };
}
