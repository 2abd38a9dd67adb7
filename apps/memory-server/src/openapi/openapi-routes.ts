// GET /openapi.json (any token) and GET /docs (a static page, public: it holds no data).
import type { FastifyInstance } from "fastify";
import { Type } from "typebox";
import { withErrors } from "../schemas/common-schemas.js";
import { DOCS_CONTENT_SECURITY_POLICY, DOCS_PAGE } from "./docs-page.js";
import { buildOpenApiDocument, type CollectedRoute } from "./openapi-document.js";

export function registerOpenApiRoutes(
  app: FastifyInstance,
  routes: readonly CollectedRoute[],
  version: string,
): void {
  let document: string | undefined;

  app.get(
    "/openapi.json",
    {
      schema: {
        summary: "This API as an OpenAPI 3.1 document",
        tags: ["operations"],
        response: withErrors({
          200: { description: "OpenAPI 3.1", content: { "application/json": { schema: Type.Object({}) } } },
        }),
      },
      config: { access: "read" },
    },
    async (_request, reply) => {
      // Built on first use, once every route is registered.
      document ??= JSON.stringify(buildOpenApiDocument(routes, version));
      return reply.type("application/json; charset=utf-8").send(document);
    },
  );

  app.get(
    "/docs",
    {
      schema: {
        summary: "A human-readable page over /openapi.json",
        tags: ["operations"],
        response: { 200: { description: "HTML", content: { "text/html": { schema: Type.String() } } } },
      },
      config: { access: "public" },
    },
    async (_request, reply) =>
      reply
        .type("text/html; charset=utf-8")
        .header("content-security-policy", DOCS_CONTENT_SECURITY_POLICY)
        .header("x-content-type-options", "nosniff")
        .send(DOCS_PAGE),
  );
}
