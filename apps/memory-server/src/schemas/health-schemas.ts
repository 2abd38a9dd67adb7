// Schemas of /healthz, /metrics and /v1/status.
import { Type } from "typebox";
import { ErrorSchema, NamespaceQuerySchema, withErrors } from "./common-schemas.js";

const HealthSchema = Type.Object({
  status: Type.Union([Type.Literal("ok"), Type.Literal("unavailable")]),
  backend: Type.String(),
  database: Type.Boolean({ description: "Whether the store answered a query." }),
});

export const healthSchema = {
  summary: "Liveness and database check (no token needed)",
  tags: ["operations"],
  response: { 200: HealthSchema, 503: HealthSchema, 500: ErrorSchema },
};

export const metricsSchema = {
  summary: "Prometheus metrics (a token with every namespace)",
  tags: ["operations"],
  response: withErrors({
    200: {
      description: "Prometheus text exposition format 0.0.4.",
      content: { "text/plain": { schema: Type.String() } },
    },
  }),
};

export const statusSchema = {
  summary: "The store's status; counts are limited to the token's namespaces (or the one asked for)",
  tags: ["operations"],
  querystring: NamespaceQuerySchema,
  response: withErrors({
    200: Type.Object({
      backend: Type.String(),
      path: Type.Optional(Type.String({ description: "Only for tokens with every namespace." })),
      entries: Type.Integer(),
      namespaces: Type.Integer(),
      pendingEmbeddings: Type.Integer(),
      missingEmbeddings: Type.Integer(),
      embedding: Type.Union([
        Type.Object({ provider: Type.String(), model: Type.String(), dimensions: Type.Integer() }),
        Type.Null(),
      ]),
      embeddingUnavailableReason: Type.Optional(Type.String()),
      vector: Type.String(),
      fts: Type.Boolean(),
      ftsEngine: Type.Optional(
        Type.String({ description: 'e.g. "sqlite fts5", "postgres tsvector (english)"' }),
      ),
      schemaVersion: Type.Integer(),
      sizeBytes: Type.Optional(Type.Integer()),
      warnings: Type.Optional(Type.Array(Type.String())),
      corrupt: Type.Optional(
        Type.String({
          description:
            "Set when the store's database file is damaged: writes answer 503 CORRUPT until `claw-memory doctor --repair`.",
        }),
      ),
    }),
  }),
};
