// Builds the OpenAPI 3.1 document from the routes as registered: the same schema objects fastify
// validates with, so the document cannot drift from what the server accepts.
import type { FastifySchema, RouteOptions } from "fastify";
import type { RouteAccess } from "../fastify-types.js";

export interface CollectedRoute {
  method: string;
  url: string;
  schema?: FastifySchema;
  access: RouteAccess;
}

type JsonObject = Record<string, unknown>;

/** Keeps the routes fastify registers (call before the routes are added). */
export function routeCollector(): { routes: CollectedRoute[]; onRoute(route: RouteOptions): void } {
  const routes: CollectedRoute[] = [];
  return {
    routes,
    onRoute(route) {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods) {
        if (method === "HEAD" || route.url === "*" || route.url.endsWith("/*")) continue;
        routes.push({
          method,
          url: route.url,
          schema: route.schema,
          access: (route.config as { access?: RouteAccess } | undefined)?.access ?? "read",
        });
      }
    },
  };
}

export function buildOpenApiDocument(routes: readonly CollectedRoute[], version: string): JsonObject {
  const paths: Record<string, Record<string, JsonObject>> = {};
  for (const route of routes) {
    const path = route.url.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
    paths[path] ??= {};
    (paths[path] as Record<string, JsonObject>)[route.method.toLowerCase()] = operation(route);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "claw-memory",
      version,
      description:
        "Long-term memory for AI agents. Send `Authorization: Bearer <token>`; a token may be scoped to " +
        "namespaces and be read-only. Errors are `{ error: { code, message } }`.",
    },
    components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
    security: [{ bearer: [] }],
    paths,
  };
}

function operation(route: CollectedRoute): JsonObject {
  const schema = route.schema ?? {};
  const op: JsonObject = {
    operationId: `${route.method.toLowerCase()}${route.url.replace(/[^A-Za-z0-9]+(.)?/g, (_, c?: string) => (c ?? "").toUpperCase())}`,
    ...(schema.summary === undefined ? {} : { summary: schema.summary }),
    ...(schema.description === undefined ? {} : { description: schema.description }),
    ...(schema.tags === undefined ? {} : { tags: schema.tags }),
    "x-access": route.access,
  };
  if (route.access === "public") op.security = [];
  const parameters = [...parametersOf(schema.params, "path"), ...parametersOf(schema.querystring, "query")];
  if (parameters.length > 0) op.parameters = parameters;
  if (schema.body !== undefined) {
    op.requestBody = { required: true, content: { "application/json": { schema: schema.body } } };
  } else if (schema.streamedBody !== undefined) {
    const { mediaType, schema: lineSchema, description } = schema.streamedBody;
    op.requestBody = { required: true, description, content: { [mediaType]: { schema: lineSchema } } };
  }
  op.responses = responsesOf(schema.response as JsonObject | undefined);
  return op;
}

function parametersOf(schema: unknown, where: "path" | "query"): JsonObject[] {
  const object = schema as { properties?: Record<string, JsonObject>; required?: string[] } | undefined;
  if (object?.properties === undefined) return [];
  return Object.entries(object.properties).map(([name, property]) => ({
    name,
    in: where,
    required: where === "path" || (object.required ?? []).includes(name),
    ...(typeof property.description === "string" ? { description: property.description } : {}),
    schema: property,
  }));
}

function responsesOf(response: JsonObject | undefined): JsonObject {
  const responses: JsonObject = {};
  for (const [status, value] of Object.entries(response ?? {})) {
    const entry = value as JsonObject;
    if (entry.content !== undefined) {
      responses[status] = {
        description: entry.description ?? describeStatus(status),
        content: entry.content,
      };
    } else {
      responses[status] = {
        description: describeStatus(status),
        content: { "application/json": { schema: entry } },
      };
    }
  }
  return responses;
}

const STATUS_TEXT: Record<string, string> = {
  "200": "OK",
  "400": "INVALID_INPUT: a field is missing or wrong (named in the message)",
  "401": "UNAUTHORIZED: missing or wrong bearer token",
  "403": "FORBIDDEN: the token may not use this namespace, or is read-only",
  "404": "NOT_FOUND",
  "413": "PAYLOAD_TOO_LARGE: over the server's body limit",
  "415": "UNSUPPORTED_MEDIA_TYPE",
  "429": "RATE_LIMITED: retry after the Retry-After header's seconds",
  "500": "INTERNAL",
  "503": "UNAVAILABLE, STORAGE, CORRUPT (a damaged database) or STORAGE_FULL (no space left)",
};

function describeStatus(status: string): string {
  return STATUS_TEXT[status] ?? status;
}
