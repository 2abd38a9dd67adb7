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
  VersionSchema,
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
      expiresAt: Type.Optional(
        Type.String({
          format: "date-time",
          description:
            "When the entry expires (RFC 3339, in the future): from then on it is never returned, and hygiene deletes it. Not with ttl.",
        }),
      ),
      ttl: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 64,
          description: 'The same as an age from now: "30m", "12h", "7d", "2w", "1y". Not with expiresAt.',
        }),
      ),
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

export const historySchema = {
  summary: "List the versions of one memory, newest first",
  description:
    "Every change since the key was first stored, also after it was forgotten (a tombstone version), " +
    "while the history retention keeps them. Empty when the key never existed.",
  tags,
  params: keyParams,
  querystring: Type.Object(
    {
      namespace: Type.Optional(NamespaceSchema),
      limit: Type.Optional(
        Type.Integer({
          minimum: 1,
          description: "At most this many, newest first; default and cap: the server's list limit.",
        }),
      ),
    },
    { additionalProperties: false },
  ),
  response: withErrors({ 200: Type.Object({ versions: Type.Array(VersionSchema) }) }),
};

export const restoreSchema = {
  summary: "Make an earlier version of a memory current again (also after it was forgotten)",
  description:
    "Writes the version's state as a new version (action restore) and returns the entry. 404 when the " +
    "version is not kept; 400 naming version when it is a tombstone (restore the version before it).",
  tags,
  params: keyParams,
  body: Type.Object(
    {
      version: Type.Integer({ minimum: 1, description: "The version to restore, as the history lists it." }),
      namespace: Type.Optional(NamespaceSchema),
    },
    { additionalProperties: false },
  ),
  response: withErrors({ 200: EntrySchema }, [404]),
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
      explain: Type.Optional(
        Type.Boolean({ description: "Give each result the parts of its score (`explain`)." }),
      ),
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
