// What this server adds to fastify's types: the caller on each request, each route's access level,
// and the OpenAPI fields of a route schema.
import type { Principal } from "./auth/bearer-auth.js";

/**
 * Who may call a route: "public" needs nothing; "read" any valid token; "write" a token that is
 * not read-only; "unscoped" a token with every namespace; "admin" both.
 */
export type RouteAccess = "public" | "read" | "write" | "unscoped" | "admin";

declare module "fastify" {
  interface FastifyContextConfig {
    access?: RouteAccess;
  }
  interface FastifyRequest {
    /** Set by the auth hook on every route that is not public. */
    principal: Principal;
  }
  interface FastifySchema {
    summary?: string;
    description?: string;
    tags?: readonly string[];
    /** Documents a body fastify does not parse (a stream), for the OpenAPI document only. */
    streamedBody?: { mediaType: string; schema: unknown; description: string };
  }
}
