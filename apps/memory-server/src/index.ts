export { type Principal, type ServerToken, TokenVerifier } from "./auth/bearer-auth.js";
export { isLoopbackHost } from "./auth/loopback.js";
export { RateLimiter, type RateLimitSettings } from "./auth/rate-limit.js";
export { type BuildServerDeps, buildServer } from "./build-server.js";
export { API_KEY_VARIABLE, resolveServerTokens } from "./compose/server-tokens.js";
export {
  type ApiError,
  type ApiErrorCode,
  type HttpErrorCode,
  STATUS_BY_CODE,
  toApiError,
} from "./errors/error-mapping.js";
export type { RouteAccess } from "./fastify-types.js";
export { main, USAGE } from "./main.js";
export { createMemoryMcpServer, type MemoryToolsOptions, type ToolScope } from "./mcp/memory-tools.js";
export { countProviderErrors } from "./metrics/provider-errors.js";
export { createServerMetrics, type ServerMetrics } from "./metrics/server-metrics.js";
export type { ServerLimits } from "./server-context.js";
export { SERVER_VERSION } from "./server-version.js";
export { type RunningServer, type StartServerOptions, startServer } from "./start-server.js";
