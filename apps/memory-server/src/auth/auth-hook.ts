// The onRequest hook every route runs: who is calling (bearer token, or the open loopback mode),
// their rate limit, and the route's access level. Namespace checks follow in the handlers, once
// the body and query are parsed.
import { MemoryError } from "@claw/memory-api";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ServerMetrics } from "../metrics/server-metrics.js";
import { OPEN_PRINCIPAL, type Principal, type TokenVerifier } from "./bearer-auth.js";
import { isLoopbackHost } from "./loopback.js";
import { assertAdmin, assertUnscoped, assertWritable } from "./namespace-scope.js";
import type { RateLimiter } from "./rate-limit.js";

export interface AuthHookOptions {
  verifier: TokenVerifier;
  /** Absent = no rate limit. */
  limiter?: RateLimiter;
  metrics: ServerMetrics;
}

export function registerAuthHook(app: FastifyInstance, options: AuthHookOptions): void {
  const { verifier, limiter, metrics } = options;
  app.decorateRequest("principal", null as unknown as Principal);

  app.addHook("onRequest", async (request, reply) => {
    const access = request.routeOptions.config.access ?? "read";
    if (access === "public") return;
    let principal: Principal;
    if (verifier.open) {
      checkOpenModeHost(request);
      principal = OPEN_PRINCIPAL;
    } else {
      try {
        principal = verifier.verify(request.headers.authorization);
      } catch (error) {
        metrics.authFailures.inc({});
        // Guessing tokens costs from the caller's address bucket.
        limiter?.take(`ip:${request.ip}`);
        throw error;
      }
    }
    if (limiter !== undefined) {
      try {
        const { limit, remaining } = limiter.take(`token:${principal.id}`);
        reply.header("x-ratelimit-limit", String(limit));
        reply.header("x-ratelimit-remaining", String(remaining));
      } catch (error) {
        metrics.rateLimited.inc({ token: principal.id });
        throw error;
      }
    }
    request.principal = principal;
    if (access === "write") assertWritable(principal);
    else if (access === "unscoped") assertUnscoped(principal);
    else if (access === "admin") assertAdmin(principal);
  });
}

/**
 * With no token the server only listens on loopback; a page in a browser could still reach it
 * through a DNS name rebound to 127.0.0.1, so the Host header must name loopback too.
 */
function checkOpenModeHost(request: FastifyRequest): void {
  const host = request.headers.host ?? "";
  const name = host.startsWith("[") ? host.slice(1, host.indexOf("]")) : host.replace(/:\d+$/, "");
  if (!isLoopbackHost(name)) {
    throw new MemoryError(
      "FORBIDDEN",
      "without a configured token this server answers only requests addressed to localhost",
    );
  }
}
