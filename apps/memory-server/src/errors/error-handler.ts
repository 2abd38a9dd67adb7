import type { Logger } from "@claw/memory-api";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { type ApiError, toApiError } from "./error-mapping.js";

/** Sends an ApiError as `{ error: { code, message } }` with the headers its status calls for. */
export function sendApiError(reply: FastifyReply, error: ApiError): FastifyReply {
  if (error.status === 401) reply.header("www-authenticate", 'Bearer realm="claw-memory"');
  if (error.retryAfterSeconds !== undefined) reply.header("retry-after", String(error.retryAfterSeconds));
  return reply
    .code(error.status)
    .type("application/json; charset=utf-8")
    .send({ error: { code: error.code, message: error.message } });
}

/** Every error of every route, and unknown routes, answer through toApiError. */
export function registerErrorHandling(app: FastifyInstance, logger: Logger): void {
  app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const mapped = toApiError(error);
    const data = { method: request.method, url: routeOf(request), status: mapped.status, code: mapped.code };
    if (mapped.status >= 500) {
      logger.error(mapped.logMessage, {
        ...data,
        ...(error instanceof Error && mapped.code === "INTERNAL" ? { stack: error.stack } : {}),
      });
    } else {
      logger.debug(mapped.logMessage, data);
    }
    return sendApiError(reply, mapped);
  });

  app.setNotFoundHandler((request, reply) =>
    sendApiError(
      reply,
      toApiError({ statusCode: 404, message: `no route ${request.method} ${pathOf(request)}` }),
    ),
  );
}

/** The route pattern (never the raw URL, which may carry keys in its query). */
export function routeOf(request: FastifyRequest): string {
  return request.routeOptions.url ?? "unknown";
}

function pathOf(request: FastifyRequest): string {
  const path = request.url.split("?")[0] ?? "";
  return path.length > 200 ? `${path.slice(0, 200)}…` : path;
}
