// The JSON schemas shared by every route: one source for fastify's validation, the handlers' types
// (through the TypeBox type provider) and the OpenAPI document.
import { Type } from "typebox";

export const NamespaceSchema = Type.String({
  minLength: 1,
  maxLength: 256,
  description: 'A namespace name; "default" unless given. A scoped token defaults to its first namespace.',
});

/** A namespace, or "*" for every namespace the caller may read. */
export const NamespaceSelectionSchema = Type.String({
  minLength: 1,
  maxLength: 256,
  description: 'A namespace name, or "*" for every namespace the token may read.',
});

export const KeySchema = Type.String({ minLength: 1, maxLength: 4096 });
export const CategorySchema = Type.String({
  minLength: 1,
  maxLength: 128,
  description: "core, daily, conversation or a custom category.",
});
export const TimestampSchema = Type.String({ format: "date-time", description: "RFC 3339." });
/** since/until, parsed by the library as every interface parses them (parseTimeBound). */
export const TimeBoundSchema = Type.String({
  minLength: 1,
  maxLength: 64,
  description:
    'An RFC 3339 timestamp, a day ("2026-11-01") or an age before now ("7d", "12h", "30m", "2w", "1y").',
});

export const SourceSchema = Type.Object({
  path: Type.String(),
  startLine: Type.Integer(),
  endLine: Type.Integer(),
});

/** A MemoryEntry as JSON: embeddings are plain arrays of numbers. */
/** The caller's own fields on an entry: a JSON object (at most 16 KB as JSON). */
export const MetadataSchema = Type.Record(Type.String(), Type.Unknown(), {
  description: "The caller's own fields: a JSON object of at most 16 KB as JSON.",
});

const WHERE_DESCRIPTION =
  'Only entries whose metadata matches: { "field": value } for equality, or { "field": { "$eq" | "$ne" | ' +
  '"$in" | "$nin" | "$gt" | "$gte" | "$lt" | "$lte" | "$exists": … } }; nested fields by dotted path; all conditions must hold.';

/** A `where` filter in a JSON body. */
export const WhereSchema = Type.Record(Type.String(), Type.Unknown(), { description: WHERE_DESCRIPTION });

/** A `where` filter in a query string: the same object as JSON text. */
export const WhereQuerySchema = Type.String({
  minLength: 2,
  maxLength: 16_384,
  description: `${WHERE_DESCRIPTION} As JSON, e.g. where={"project":"alpha"} (URL-encoded).`,
});

/** RecallExplanation: why recall returned an entry (recall with `explain: true`). */
export const ExplanationSchema = Type.Object(
  {
    mode: Type.Union([Type.Literal("hybrid"), Type.Literal("embedding"), Type.Literal("bm25")]),
    fusion: Type.Union([
      Type.Literal("bm25"),
      Type.Literal("embedding"),
      Type.Literal("adaptive"),
      Type.Literal("rrf"),
      Type.Literal("weighted"),
      Type.Literal("like"),
    ]),
    keyword: Type.Optional(
      Type.Object({
        rank: Type.Integer({ description: "1 = the best keyword hit." }),
        score: Type.Number({ description: "BM25 scaled by term coverage, plus what neighbours lent." }),
        neighbour: Type.Number({
          description: "The part of score lent by the entries beside it in its session.",
        }),
        terms: Type.Array(Type.String(), { description: "The query's search terms found in it." }),
      }),
    ),
    vector: Type.Optional(Type.Object({ similarity: Type.Number(), rank: Type.Integer() })),
    strength: Type.Number({
      description:
        "In [0, 1]: the fused strength, relative to the best candidate (a long entry's keyword score scaled by length.factor first).",
    }),
    length: Type.Optional(
      Type.Object(
        { words: Type.Integer(), factor: Type.Number() },
        {
          description:
            "An entry longer than a passage: its words and the share of its keyword score it kept.",
        },
      ),
    ),
    coverage: Type.Number({ description: "In [0, 1]: the share of query terms one passage of it holds." }),
    relevance: Type.Number({ description: "½ × coverage^1.5 + ½ × strength." }),
    recency: Type.Number({ description: "The recency factor (1 for core entries)." }),
    mmr: Type.Optional(Type.Integer({ description: "Its position in MMR's picks, when MMR is on." })),
    score: Type.Number({ description: "relevance × recency: the entry's score." }),
  },
  { description: "The parts of the entry's score: present when recall was asked to explain." },
);

export const EntrySchema = Type.Object({
  id: Type.String(),
  key: Type.String(),
  content: Type.String(),
  category: Type.String(),
  namespace: Type.String(),
  sessionId: Type.Optional(Type.String()),
  importance: Type.Optional(Type.Number()),
  supersededBy: Type.Optional(Type.String()),
  createdAt: Type.String(),
  updatedAt: Type.String(),
  timestamp: Type.String(),
  score: Type.Optional(Type.Number()),
  embedding: Type.Optional(Type.Array(Type.Number())),
  source: Type.Optional(SourceSchema),
  context: Type.Optional(Type.String()),
  metadata: Type.Optional(MetadataSchema),
  expiresAt: Type.Optional(
    Type.String({ description: "When the entry expires (RFC 3339): from then on no route returns it." }),
  ),
  explain: Type.Optional(ExplanationSchema),
});

/** What made a version of an entry (MemoryChange). */
export const VersionActionSchema = Type.Union(
  [
    Type.Literal("create"),
    Type.Literal("update"),
    Type.Literal("supersede"),
    Type.Literal("forget"),
    Type.Literal("restore"),
    Type.Literal("merge"),
    Type.Literal("prune"),
    Type.Literal("expire"),
  ],
  {
    description:
      "create, update, supersede (marked replaced), forget (deleted), restore, merge (by the curator), " +
      "prune (hygiene's retention) or expire (its expiresAt passed).",
  },
);

/** One version of an entry, as its history lists them (MemoryVersion). */
export const VersionSchema = Type.Object({
  version: Type.Integer({ minimum: 1, description: "1, 2, 3… per namespace and key, never reused." }),
  at: Type.String({ description: "When this version was written (RFC 3339, UTC)." }),
  action: VersionActionSchema,
  actor: Type.String({
    description:
      'Who made the change: "token:<name>" (a server request with that token), "server" (a server ' +
      'without tokens), "library", "cli", "curator", "hygiene", … ("unknown" before history was kept).',
  }),
  current: Type.Boolean({ description: "The entry's state now (never a tombstone)." }),
  deleted: Type.Boolean({
    description:
      "A tombstone: the version records a deletion and holds what was deleted; it cannot be restored.",
  }),
  id: Type.String(),
  key: Type.String(),
  namespace: Type.String(),
  content: Type.String(),
  category: Type.String(),
  sessionId: Type.Optional(Type.String()),
  importance: Type.Optional(Type.Number()),
  supersededBy: Type.Optional(Type.String()),
  metadata: Type.Optional(MetadataSchema),
  expiresAt: Type.Optional(Type.String()),
  context: Type.Optional(Type.String()),
  source: Type.Optional(SourceSchema),
});

export const ErrorSchema = Type.Object({
  error: Type.Object({
    code: Type.String({ description: "A MemoryError code, or PAYLOAD_TOO_LARGE, UNSUPPORTED_MEDIA_TYPE, …" }),
    message: Type.String(),
  }),
});

export const NamespaceQuerySchema = Type.Object(
  { namespace: Type.Optional(NamespaceSchema) },
  { additionalProperties: false },
);

export const EmptyBodySchema = Type.Object({}, { additionalProperties: false });

/**
 * Error statuses every authenticated route can answer with: bad input, auth, a conflicting write
 * (409), rate limit, a bug, the provider failing (502: hybrid recall, synchronous embedding), the
 * store unavailable, a timeout.
 */
const COMMON_ERRORS = [400, 401, 403, 409, 429, 500, 502, 503, 504] as const;
type CommonError = (typeof COMMON_ERRORS)[number];
type ErrorResponses<S extends number> = { [K in S]: typeof ErrorSchema };

/**
 * A route's response map: its own statuses plus the common error statuses (and any extra ones),
 * all with the one error body.
 */
export function withErrors<T extends Record<number, unknown>, E extends number = never>(
  responses: T,
  extra: readonly E[] = [],
): T & Omit<ErrorResponses<CommonError | E>, keyof T> {
  const errors: Record<number, typeof ErrorSchema> = {};
  for (const status of [...COMMON_ERRORS, ...extra]) errors[status] = ErrorSchema;
  return { ...errors, ...responses } as T & Omit<ErrorResponses<CommonError | E>, keyof T>;
}
