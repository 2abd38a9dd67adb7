// MCP over streamable HTTP at /mcp, stateless: each POST gets its own McpServer (the memory tools,
// scoped to the caller's token) and transport, both closed when the response ends.

import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { FastifyInstance } from "fastify";
import { Type } from "typebox";
import { requestActor } from "../auth/request-actor.js";
import { HttpError } from "../errors/error-mapping.js";
import { recordRequest } from "../metrics/server-metrics.js";
import { withErrors } from "../schemas/common-schemas.js";
import type { ServerContext } from "../server-context.js";
import { createMemoryMcpServer } from "./memory-tools.js";

const tags = ["mcp"];

export function registerMcpRoute(app: FastifyInstance, ctx: ServerContext): void {
  app.post(
    "/mcp",
    {
      schema: {
        summary: "MCP (streamable HTTP, stateless): the memory_* tools of `claw-memory mcp`",
        description:
          "JSON-RPC messages of the Model Context Protocol. The tools are scoped like the token: " +
          "its namespaces only, and no writes with a read-only token.",
        tags,
        body: Type.Union([Type.Object({}), Type.Array(Type.Object({}))], {
          description: "A JSON-RPC message or batch.",
        }),
        response: withErrors({
          200: {
            description: "JSON-RPC response(s), as JSON or an SSE stream.",
            content: {
              "application/json": { schema: Type.Object({}) },
              "text/event-stream": { schema: Type.String() },
            },
          },
        }),
      },
      config: { access: "read" },
    },
    async (request, reply) => {
      const principal = request.principal;
      const server = createMemoryMcpServer(ctx.memory, {
        recall: ctx.recall,
        scope: {
          ...(principal.namespaces === undefined ? {} : { namespaces: principal.namespaces }),
          readOnly: principal.readOnly,
        },
        version: ctx.version,
        actor: requestActor(principal),
      });
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      // The transport writes the response itself; fastify's hooks no longer see it.
      reply.hijack();
      reply.raw.on("close", () => {
        recordRequest(ctx.metrics, request, reply.raw.statusCode, reply.elapsedTime);
        closeQuietly(ctx, transport, server);
      });
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    },
  );

  // Stateless: no server-initiated stream to open, no session to end.
  const notAllowed = async () => {
    throw new HttpError("METHOD_NOT_ALLOWED", "this MCP endpoint is stateless: use POST");
  };
  const schema = { summary: "Not supported (stateless MCP)", tags, response: withErrors({}, [405]) };
  app.get("/mcp", { schema, config: { access: "read" } }, notAllowed);
  app.delete("/mcp", { schema, config: { access: "read" } }, notAllowed);
}

function closeQuietly(
  ctx: ServerContext,
  transport: StreamableHTTPServerTransport,
  server: { close(): Promise<void> },
): void {
  Promise.all([transport.close(), server.close()]).catch((error: unknown) => {
    ctx.logger.warn("closing an MCP request's server failed", { error: (error as Error).message });
  });
}
