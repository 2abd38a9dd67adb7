// buildServer(deps): the fastify app, every route registered, not listening. Tests call inject();
// startServer() listens.
import type { Logger, Memory, TextGenerator } from "@claw/memory-api";
import { silentLogger } from "@claw/memory-api";
import { type MemoryConfig, plaintextTokenWarnings } from "@claw/memory-core";
import Fastify, { type FastifyInstance } from "fastify";
import { registerAuthHook } from "./auth/auth-hook.js";
import { type ServerToken, TokenVerifier } from "./auth/bearer-auth.js";
import { RateLimiter } from "./auth/rate-limit.js";
import { registerErrorHandling, sendApiError } from "./errors/error-handler.js";
import { toApiError } from "./errors/error-mapping.js";
import "./fastify-types.js";
import { registerGracefulClose } from "./graceful-close.js";
import { registerInspectorRoutes } from "./inspector/inspector-routes.js";
import { registerMcpRoute } from "./mcp/mcp-route.js";
import { createServerMetrics, registerRequestMetrics, type ServerMetrics } from "./metrics/server-metrics.js";
import { routeCollector } from "./openapi/openapi-document.js";
import { registerOpenApiRoutes } from "./openapi/openapi-routes.js";
import { registerAdminRoutes } from "./routes/admin-routes.js";
import { registerContextRoutes } from "./routes/context-routes.js";
import { registerHealthRoutes } from "./routes/health-routes.js";
import { registerMemoryRoutes } from "./routes/memory-routes.js";
import { registerTransferRoutes } from "./routes/transfer-routes.js";
import { resolveLimits, type ServerContext, type ServerLimits } from "./server-context.js";
import { SERVER_VERSION } from "./server-version.js";
import { registerJsonBodyParser } from "./validation/json-body-parser.js";
import { createValidatorCompiler } from "./validation/validator-compiler.js";

/** What buildServer serves: the memory and config, plus optional tokens, limits, metrics and logger. */
export interface BuildServerDeps {
  memory: Memory;
  /** The validated configuration (loadConfig / resolveConfig, environment applied). */
  config: MemoryConfig;
  logger?: Logger;
  /** Accepted bearer tokens; none = open, which only a loopback listener may be (startServer checks). */
  tokens?: readonly ServerToken[];
  /**
   * What `GET /v1/status` warns tokens with every namespace about, beside the store's warnings.
   * Default: each `[[server.tokens]]` of `config` holding a plaintext token.
   */
  warnings?: readonly string[];
  /** Milliseconds, for the rate limiter. Default Date.now. */
  now?: () => number;
  /** The curator's generator; default the one createMemory was given. */
  generator?: TextGenerator;
  /** Shared with the provider wrapper that counts provider errors; default a new set. */
  metrics?: ServerMetrics;
  limits?: Partial<ServerLimits>;
  /** Answers POST /v1/recall (startServer passes its recall workers'); default `memory.recall`. */
  recall?: Memory["recall"];
}

/** The longest path parameter: a 4096-byte key with every byte percent-encoded. */
export const MAX_PARAM_LENGTH = 3 * 4096;

/**
 * The HTTP API (REST, MCP at `/mcp`, `/openapi.json`, `/metrics`) as a fastify app over `memory`,
 * not yet listening: for embedding the API in a process that owns the memory. startServer does the
 * rest (config, tokens, workers, listen).
 *
 * @example
 * ```ts
 * import { createMemory } from "@claw/memory-core";
 * import { buildServer } from "@claw/memory-server";
 *
 * const memory = await createMemory({ workspaceDir: "./server-data" });
 * const app = buildServer({ memory, config: memory.context.config });
 * await app.listen({ host: "127.0.0.1", port: 7878 });
 * ```
 */
export function buildServer(deps: BuildServerDeps): FastifyInstance {
  const logger = deps.logger ?? silentLogger;
  const limits = resolveLimits(deps.config, deps.limits);
  const metrics = deps.metrics ?? createServerMetrics();
  const ctx: ServerContext = {
    memory: deps.memory,
    recall: deps.recall ?? ((query, options) => deps.memory.recall(query, options)),
    config: deps.config,
    logger,
    limits,
    metrics,
    ...(deps.generator === undefined ? {} : { generator: deps.generator }),
    version: SERVER_VERSION,
    warnings: deps.warnings ?? plaintextTokenWarnings(deps.config.server),
  };

  const app = Fastify({
    // Requests are logged through the injected logger (below), never with their headers.
    logger: false,
    bodyLimit: limits.bodyLimitBytes,
    // Closing: requests that arrive on connections already open are served (graceful-close.ts
    // answers them with `Connection: close`), then the idle connections are closed.
    forceCloseConnections: "idle",
    return503OnClosing: false,
    // Keys (4096 bytes), session ids (1024) and namespaces (256) stay addressable by URL even
    // when every byte is percent-encoded (3 characters each). Under routerOptions: fastify 5
    // warns (FSTDEP022) on every start when router options are given at the top level.
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // A URL that cannot be decoded answers in the API's error shape too.
    frameworkErrors: (error, _request, reply) => {
      void sendApiError(reply, toApiError(error));
    },
  });
  app.setValidatorCompiler(createValidatorCompiler());
  registerJsonBodyParser(app);

  registerGracefulClose(app);
  // Before the route collector: the inspector is a page for people, not an operation of the API, so
  // it stays out of /openapi.json. Hooks added below (auth, metrics, errors) still apply to it.
  registerInspectorRoutes(app);
  const collector = routeCollector();
  app.addHook("onRoute", collector.onRoute);
  registerErrorHandling(app, logger);
  registerRequestMetrics(app, metrics);
  app.addHook("onResponse", async (request, reply) => {
    logger.debug("request", {
      method: request.method,
      route: request.routeOptions.url ?? "unmatched",
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime),
    });
  });
  registerAuthHook(app, {
    verifier: new TokenVerifier(deps.tokens ?? []),
    ...(limits.rateLimit === false ? {} : { limiter: new RateLimiter(limits.rateLimit, deps.now) }),
    metrics,
  });

  registerHealthRoutes(app, ctx);
  registerMemoryRoutes(app, ctx);
  registerContextRoutes(app, ctx);
  registerTransferRoutes(app, ctx);
  registerAdminRoutes(app, ctx);
  registerMcpRoute(app, ctx);
  registerOpenApiRoutes(app, collector.routes, SERVER_VERSION);
  return app;
}
