// Schemas of the NDJSON export and import routes.
import { Type } from "typebox";
import {
  CategorySchema,
  EntrySchema,
  NamespaceSchema,
  NamespaceSelectionSchema,
  TimeBoundSchema,
  WhereQuerySchema,
  withErrors,
} from "./common-schemas.js";

export const NDJSON = "application/x-ndjson";
/** Media types the import accepts (the same format under its other names). */
export const NDJSON_TYPES = [NDJSON, "application/ndjson", "application/jsonl"];

const tags = ["transfer"];

export const exportSchema = {
  summary: "Export memories as NDJSON (one entry per line), streamed",
  tags,
  querystring: Type.Object(
    {
      namespace: Type.Optional(NamespaceSelectionSchema),
      category: Type.Optional(CategorySchema),
      sessionId: Type.Optional(Type.String({ minLength: 1 })),
      since: Type.Optional(TimeBoundSchema),
      until: Type.Optional(TimeBoundSchema),
      includeEmbeddings: Type.Optional(Type.Boolean()),
      where: Type.Optional(WhereQuerySchema),
    },
    { additionalProperties: false },
  ),
  response: withErrors({
    200: {
      description: "One entry per line; without a namespace, every namespace the token may read.",
      content: { [NDJSON]: { schema: EntrySchema } },
    },
  }),
};

export const ImportReportSchema = Type.Object({
  imported: Type.Integer({ description: "Entries written (0 in a dry run)." }),
  accepted: Type.Integer({ description: "Lines that passed every check." }),
  rejected: Type.Integer({ description: "Lines refused." }),
  errors: Type.Array(Type.Object({ line: Type.Integer(), code: Type.String(), message: Type.String() }), {
    description: "The first refused lines, by line number.",
  }),
  errorsTruncated: Type.Boolean(),
  dryRun: Type.Boolean(),
  historySkipped: Type.Optional(
    Type.Integer({
      description:
        'History lines of a PostgreSQL backup (`{"history": …}`), skipped: `claw-memory restore` puts them back.',
    }),
  ),
});

export const importSchema = {
  summary: "Import memories from NDJSON (any size; bad lines are skipped and reported)",
  tags,
  querystring: Type.Object(
    {
      namespace: Type.Optional(NamespaceSchema),
      onConflict: Type.Optional(Type.Union([Type.Literal("replace"), Type.Literal("skip")])),
      dryRun: Type.Optional(Type.Boolean()),
    },
    { additionalProperties: false },
  ),
  streamedBody: {
    mediaType: NDJSON,
    schema: EntrySchema,
    description:
      "One entry per line, as export writes them (id, times and embedding optional). " +
      "Lines without a namespace go to the `namespace` query parameter, else the token's default.",
  },
  response: withErrors({ 200: ImportReportSchema }, [415]),
};
