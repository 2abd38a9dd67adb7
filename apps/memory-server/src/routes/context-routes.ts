// POST /v1/context: what an agent adds to its prompt for a message (issue 10), namespace-scoped.
import { recallForTurn, stableMemoryBlock } from "@claw/memory-lifecycle";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { FastifyInstance } from "fastify";
import { singleNamespace } from "../auth/namespace-scope.js";
import { contextSchema } from "../schemas/context-schemas.js";
import { type ServerContext, withDeadline } from "../server-context.js";

export function registerContextRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  api.post("/v1/context", { schema: contextSchema, config: { access: "read" } }, async (request) => {
    const { message, limit, maxTokens } = request.body;
    const namespace = singleNamespace(request.principal, request.body.namespace);
    return withDeadline(ctx.limits.requestTimeoutMs, async (signal) => {
      const stable = await stableMemoryBlock(ctx.memory, { namespace });
      const recalled = await recallForTurn(ctx.memory, message, {
        namespace,
        limit,
        maxTokens,
        signal,
        exclude: stable.entries.map((e) => e.key),
        recall: ctx.recall,
      });
      return {
        stable: { text: stable.text, hash: stable.hash, keys: stable.entries.map((e) => e.key) },
        recall: { text: recalled.text, keys: recalled.entries.map((e) => e.key) },
      };
    });
  });
}
