// GET /: the web inspector, a static page. Public like /docs: the page holds no data, and every call
// it makes goes through the API with the token typed into it.
import type { FastifyInstance } from "fastify";
import { INSPECTOR_CONTENT_SECURITY_POLICY, INSPECTOR_PAGE } from "./inspector-page.js";

export function registerInspectorRoutes(app: FastifyInstance): void {
  app.get("/", { config: { access: "public" } }, async (_request, reply) =>
    reply
      .type("text/html; charset=utf-8")
      .header("content-security-policy", INSPECTOR_CONTENT_SECURITY_POLICY)
      .header("cache-control", "no-store")
      .header("x-content-type-options", "nosniff")
      .header("referrer-policy", "no-referrer")
      .send(INSPECTOR_PAGE),
  );
}
