// The entry routes: store, get, forget, history, restore, list, recall, and the namespace and
// session purges. Every write is recorded in the entries' history as the request's actor.
import type { Memory, MemoryEntry, Metadata, WhereFilter } from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { FastifyInstance } from "fastify";
import { namespaceSelection, singleNamespace } from "../auth/namespace-scope.js";
import { requestActor } from "../auth/request-actor.js";
import {
  forgetSchema,
  getSchema,
  historySchema,
  listSchema,
  purgeNamespaceSchema,
  purgeSessionSchema,
  recallSchema,
  restoreSchema,
  storeSchema,
} from "../schemas/memory-schemas.js";
import { entryJson, type ServerContext, withDeadline } from "../server-context.js";
import { whereFromQuery } from "./where-query.js";

export function registerMemoryRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const { memory, limits, metrics } = ctx;
  const deadline = <T>(work: (signal: AbortSignal) => Promise<T>) =>
    withDeadline(limits.requestTimeoutMs, work);

  api.post("/v1/memories", { schema: storeSchema, config: { access: "write" } }, async (request) => {
    const { key, content, namespace, metadata, ...options } = request.body;
    const target = singleNamespace(request.principal, namespace);
    // The schema takes any JSON object; the library checks what metadata may hold.
    const stored = {
      ...options,
      metadata: metadata as Metadata | undefined,
      namespace: target,
      actor: requestActor(request.principal),
    };
    return entryJson(await deadline(() => memory.store(key, content, stored)));
  });

  api.get("/v1/memories/:key", { schema: getSchema, config: { access: "read" } }, async (request) => {
    const namespace = singleNamespace(request.principal, request.query.namespace);
    const entry = await deadline(() => memory.get(request.params.key, { namespace }));
    if (entry === null) throw notFound(request.params.key, namespace);
    return entryJson(entry);
  });

  api.delete("/v1/memories/:key", { schema: forgetSchema, config: { access: "write" } }, async (request) => {
    const namespace = singleNamespace(request.principal, request.query.namespace);
    const actor = requestActor(request.principal);
    const removed = await deadline(() => memory.forget(request.params.key, { namespace, actor }));
    if (!removed) throw notFound(request.params.key, namespace);
    return { key: request.params.key, namespace, removed };
  });

  api.get(
    "/v1/memories/:key/history",
    { schema: historySchema, config: { access: "read" } },
    async (request) => {
      const namespace = singleNamespace(request.principal, request.query.namespace);
      const limit = Math.min(request.query.limit ?? limits.listLimitMax, limits.listLimitMax);
      const versions = await deadline(() => memory.history(request.params.key, { namespace, limit }));
      return { versions };
    },
  );

  api.post(
    "/v1/memories/:key/restore",
    { schema: restoreSchema, config: { access: "write" } },
    async (request) => {
      const namespace = singleNamespace(request.principal, request.body.namespace);
      const actor = requestActor(request.principal);
      const restored = await deadline(() =>
        memory.restore(request.params.key, request.body.version, { namespace, actor }),
      );
      return entryJson(restored);
    },
  );

  api.get("/v1/memories", { schema: listSchema, config: { access: "read" } }, async (request) => {
    const { namespace, limit: wanted, offset = 0, where, ...rest } = request.query;
    const filter = { ...rest, where: whereFromQuery(where) };
    const limit = Math.min(wanted ?? 100, limits.listLimitMax);
    const selection = namespaceSelection(request.principal, namespace, "default");
    const entries = await deadline(async () => {
      if (selection.all) return memory.list({ ...filter, namespace: "*", limit, offset });
      if (selection.namespaces.length === 1) {
        return memory.list({ ...filter, namespace: selection.namespaces[0], limit, offset });
      }
      // Several namespaces: each one's first offset+limit, merged in list order.
      const pages = await Promise.all(
        selection.namespaces.map((ns) => memory.list({ ...filter, namespace: ns, limit: offset + limit })),
      );
      return pages
        .flat()
        .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))
        .slice(offset, offset + limit);
    });
    return { entries: entries.map(entryJson), limit, offset };
  });

  api.post("/v1/recall", { schema: recallSchema, config: { access: "read" } }, async (request) => {
    const { query, namespace, limit: wanted, where, ...rest } = request.body;
    // The schema takes any JSON object; the library checks what the filter means.
    const options = { ...rest, where: where as WhereFilter | undefined };
    const limit = Math.min(wanted ?? 5, limits.recallLimitMax);
    const selection = namespaceSelection(request.principal, namespace, "default");
    const started = performance.now();
    const results = await deadline((signal) =>
      recallIn(ctx.recall, selection.all ? ["*"] : selection.namespaces, query, {
        ...options,
        limit,
        signal,
      }),
    );
    metrics.recallDuration.observe(
      { mode: options.mode ?? ctx.config.memory.searchMode },
      (performance.now() - started) / 1000,
    );
    return { results: results.map(entryJson) };
  });

  api.delete(
    "/v1/namespaces/:ns",
    { schema: purgeNamespaceSchema, config: { access: "write" } },
    async (request) => {
      const namespace = singleNamespace(request.principal, request.params.ns);
      return { namespace, removed: await deadline(() => memory.purgeNamespace(namespace)) };
    },
  );

  api.delete(
    "/v1/sessions/:id",
    { schema: purgeSessionSchema, config: { access: "write" } },
    async (request) => {
      const sessionId = request.params.id;
      const selection = namespaceSelection(request.principal, request.query.namespace, "all");
      const removed = await deadline(async () => {
        if (selection.all) return memory.purgeSession(sessionId);
        // purgeSession spans every namespace; a scoped token deletes only within its own.
        const entries = (
          await Promise.all(selection.namespaces.map((namespace) => memory.export({ namespace, sessionId })))
        ).flat();
        return memory.forgetMany(
          entries.map((e) => ({ key: e.key, namespace: e.namespace })),
          // A purge removes the history too, as purgeSession does for an unscoped caller.
          { actor: requestActor(request.principal), eraseHistory: true },
        );
      });
      return { sessionId, removed };
    },
  );
}

type RecallCall = Parameters<Memory["recall"]>[1] & { limit: number };

/** One recall per namespace, merged best first (a single call when there is one namespace). */
async function recallIn(
  recall: Memory["recall"],
  namespaces: readonly string[],
  query: string,
  options: RecallCall,
): Promise<MemoryEntry[]> {
  if (namespaces.length === 1) return recall(query, { ...options, namespace: namespaces[0] });
  const lists = await Promise.all(namespaces.map((namespace) => recall(query, { ...options, namespace })));
  return lists
    .flat()
    .sort((a, b) => (b.score ?? 0) - (a.score ?? 0))
    .slice(0, options.limit);
}

function notFound(key: string, namespace: string): MemoryError {
  return new MemoryError(
    "NOT_FOUND",
    `no memory with key ${JSON.stringify(key)} in namespace ${JSON.stringify(namespace)}`,
  );
}
