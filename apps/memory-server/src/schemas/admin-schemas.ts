// Schemas of the maintenance routes under /v1/admin.
import { Type } from "typebox";
import { EmptyBodySchema, EntrySchema, NamespaceSchema, withErrors } from "./common-schemas.js";

const tags = ["admin"];

export const reindexSchema = {
  summary: "Rebuild the full-text index and re-embed every entry (admin token)",
  tags,
  body: EmptyBodySchema,
  response: withErrors({ 200: Type.Object({ entries: Type.Integer() }) }),
};

export const backfillSchema = {
  summary: "Embed the entries that have no vector yet (admin token)",
  tags,
  body: Type.Object(
    { batchSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 4096 })) },
    { additionalProperties: false },
  ),
  response: withErrors({ 200: Type.Object({ embedded: Type.Integer() }) }),
};

export const hygieneSchema = {
  summary: "Prune conversation and daily entries past their retention, and expired entries (admin token)",
  tags,
  body: Type.Object(
    { force: Type.Optional(Type.Boolean({ description: "Run even when the last run is recent." })) },
    { additionalProperties: false },
  ),
  response: withErrors({
    200: Type.Object({
      ran: Type.Boolean(),
      at: Type.String(),
      previousRunAt: Type.Optional(Type.String()),
      pruned: Type.Record(Type.String(), Type.Integer()),
      prunedSuperseded: Type.Integer(),
      keptByFloor: Type.Integer(),
      expired: Type.Optional(
        Type.Integer({ description: "Entries deleted because their own expiresAt had passed." }),
      ),
      deletedKeys: Type.Array(Type.String()),
    }),
  }),
};

export const purgeExpiredSchema = {
  summary: "Delete every entry whose expiresAt has passed, in every namespace (admin token)",
  description:
    "Expired entries are already never returned; this deletes them now (hygiene also does), each " +
    "leaving an expire version in its history.",
  tags,
  body: EmptyBodySchema,
  response: withErrors({ 200: Type.Object({ removed: Type.Integer() }) }),
};

export const snapshotSchema = {
  summary: "Write MEMORY_SNAPSHOT.md with every core memory (admin token)",
  tags,
  body: EmptyBodySchema,
  response: withErrors({
    200: Type.Object({ path: Type.String(), count: Type.Integer(), written: Type.Boolean() }),
  }),
};

/** The media type of a SQLite database file (RFC 8869's registration). */
export const SQLITE_MEDIA_TYPE = "application/vnd.sqlite3";

export const backupSchema = {
  summary: "Download a consistent copy of the whole store, taken while it stays in use (admin token)",
  description:
    "SQLite: the database file, copied by SQLite's online backup and integrity-checked " +
    "(application/vnd.sqlite3; `claw-memory restore FILE` puts it back). PostgreSQL: NDJSON of every " +
    'entry with its vector, then a `{"history": …}` line per version of every key, one snapshot ' +
    "(application/x-ndjson; `claw-memory restore FILE` puts back the entries and their history, " +
    "POST /v1/import the entries, skipping the history lines; pg_dump copies a whole database). " +
    "Content-Disposition names the file and X-Claw-Backup-Entries gives its entries.",
  tags,
  body: EmptyBodySchema,
  response: withErrors({
    200: {
      description: "The backup file, streamed.",
      content: {
        [SQLITE_MEDIA_TYPE]: { schema: { type: "string", format: "binary" } },
        "application/x-ndjson": { schema: EntrySchema },
      },
    },
  }),
};

export const consolidateSchema = {
  summary: "Consolidate an agent turn: a daily entry, promoted to core when important",
  tags,
  body: Type.Object(
    {
      user: Type.String({ maxLength: 1_048_576 }),
      assistant: Type.Optional(Type.String({ maxLength: 1_048_576 })),
      sessionId: Type.Optional(Type.String({ minLength: 1, maxLength: 1024 })),
      namespace: Type.Optional(NamespaceSchema),
    },
    { additionalProperties: false },
  ),
  response: withErrors({
    200: Type.Object({
      daily: Type.Union([EntrySchema, Type.Null()]),
      core: Type.Union([EntrySchema, Type.Null()]),
      superseded: Type.Array(Type.String()),
      skipped: Type.Optional(Type.String()),
    }),
  }),
};

export const curateSchema = {
  summary: "Let the configured LLM propose deletions and merges, and apply the valid ones",
  tags,
  body: Type.Object(
    {
      dryRun: Type.Optional(Type.Boolean()),
      maxDeletions: Type.Optional(Type.Integer({ minimum: 0 })),
      namespace: Type.Optional(NamespaceSchema),
    },
    { additionalProperties: false },
  ),
  response: withErrors({
    200: Type.Object({
      deleted: Type.Array(Type.String()),
      merged: Type.Array(
        Type.Object({
          keys: Type.Array(Type.String()),
          into: Type.String(),
          content: Type.String(),
          namespace: Type.String(),
        }),
      ),
      totalBefore: Type.Integer(),
      totalAfter: Type.Integer(),
      dryRun: Type.Boolean(),
      refused: Type.Array(Type.String()),
      errors: Type.Array(Type.String()),
    }),
  }),
};
