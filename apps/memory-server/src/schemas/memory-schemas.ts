// Schemas of the entry routes: store, get, forget, list, recall and the purges.
import { Type } from "typebox";
import {
  CategorySchema,
  EntrySchema,
  KeySchema,
  MetadataSchema,
  NamespaceQuerySchema,
  NamespaceSchema,
  NamespaceSelectionSchema,
  TimeBoundSchema,
  TimestampSchema,
  WhereQuerySchema,
  WhereSchema,
  withErrors,
} from "./common-schemas.js";

const tags = ["memories"];

export const storeSchema = {
  summary: "Store a memory (upsert by namespace and key)",
  tags,
  body: Type.Object(
    {
      key: KeySchema,
      content: Type.String({ minLength: 1 }),
      category: Type.Optional(CategorySchema),
      namespace: Type.Optional(NamespaceSchema),
      sessionId: Type.Optional(Type.String({ minLength: 1, maxLength: 1024 })),
      importance: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
      context: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 4096,
          description: "More words the entry is found by, at a lower weight (e.g. a heading path).",
        }),
      ),
      metadata: Type.Optional(MetadataSchema),
    },
    { additionalProperties: false },
  ),
  response: withErrors({ 200: EntrySchema }, [413]),
};

const keyParams = Type.Object({ key: KeySchema });

export const getSchema = {
  summary: "Read one memory by key",
  tags,
  params: keyParams,
  querystring: NamespaceQuerySchema,
  response: withErrors({ 200: EntrySchema }, [404]),
};

export const forgetSchema = {
  summary: "Delete one memory by key",
  tags,
  params: keyParams,
  querystring: NamespaceQuerySchema,
  response: withErrors(
    { 200: Type.Object({ key: Type.String(), namespace: Type.String(), removed: Type.Boolean() }) },
    [404],
  ),
};

export const listSchema = {
  summary: "List memories, most recently updated first",
  tags,
  querystring: Type.Object(
    {
      namespace: Type.Optional(NamespaceSelectionSchema),
      category: Type.Optional(CategorySchema),
      sessionId: Type.Optional(Type.String({ minLength: 1 })),
      limit: Type.Optional(Type.Integer({ minimum: 1, description: "Default 100; capped by the server." })),
      offset: Type.Optional(Type.Integer({ minimum: 0 })),
      where: Type.Optional(WhereQuerySchema),
    },
    { additionalProperties: false },
  ),
  response: withErrors({
    200: Type.Object({
      entries: Type.Array(EntrySchema),
      limit: Type.Integer(),
      offset: Type.Integer(),
    }),
  }),
};

export const recallSchema = {
  summary: "Recall the memories most relevant to a query, best first",
  tags,
  body: Type.Object(
    {
      query: Type.String({ maxLength: 65_536, description: '"" or "*" = most recent.' }),
      limit: Type.Optional(Type.Integer({ minimum: 1, description: "Default 5; capped by the server." })),
      namespace: Type.Optional(NamespaceSelectionSchema),
      sessionId: Type.Optional(Type.String({ minLength: 1 })),
      since: Type.Optional(TimeBoundSchema),
      until: Type.Optional(TimeBoundSchema),
      categories: Type.Optional(Type.Array(CategorySchema, { maxItems: 64 })),
      mode: Type.Optional(
        Type.Union([Type.Literal("hybrid"), Type.Literal("embedding"), Type.Literal("bm25")]),
      ),
      minScore: Type.Optional(
        Type.Number({ description: "Scores are in (0, 1]; an entry with every query term scores ≥ 0.5." }),
      ),
      includeSuperseded: Type.Optional(Type.Boolean()),
      withEmbeddings: Type.Optional(Type.Boolean()),
      now: Type.Optional(TimestampSchema),
      where: Type.Optional(WhereSchema),
    },
    { additionalProperties: false },
  ),
  response: withErrors({ 200: Type.Object({ results: Type.Array(EntrySchema) }) }, [413]),
};

export const purgeNamespaceSchema = {
  summary: "Delete every memory of a namespace",
  tags,
  params: Type.Object({ ns: NamespaceSchema }),
  response: withErrors({ 200: Type.Object({ namespace: Type.String(), removed: Type.Integer() }) }),
};

export const purgeSessionSchema = {
  summary: "Delete every memory of a session (in the token's namespaces, or one namespace)",
  tags,
  params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 1024 }) }),
  querystring: NamespaceQuerySchema,
  response: withErrors({ 200: Type.Object({ sessionId: Type.String(), removed: Type.Integer() }) }),
};
