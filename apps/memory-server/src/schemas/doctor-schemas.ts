// Schema of POST /v1/admin/doctor.
import { Type } from "typebox";
import { EmptyBodySchema, withErrors } from "./common-schemas.js";

const DoctorCheckSchema = Type.Object({
  name: Type.Union([
    Type.Literal("integrity"),
    Type.Literal("full-text"),
    Type.Literal("vector-codes"),
    Type.Literal("metadata-index"),
  ]),
  ok: Type.Boolean(),
  detail: Type.String({ description: '"ok", or what was found.' }),
  damaged: Type.Optional(Type.Array(Type.String(), { description: "Tables and indexes found damaged." })),
});

export const doctorSchema = {
  summary: "Check the SQLite database for damage, read-only (admin token)",
  description:
    "SQLite's integrity check (naming the damaged tables and indexes), the full-text index's own check, " +
    "and the vector codes and metadata index against the entries. Repairs and salvage need the store " +
    "closed: stop the server and run `claw-memory doctor --repair` or `--salvage OUT`. " +
    "UNAVAILABLE on PostgreSQL (use amcheck and pg_dump).",
  tags: ["admin"],
  body: EmptyBodySchema,
  response: withErrors({
    200: Type.Object({
      ok: Type.Boolean({ description: "Every check passed." }),
      marked: Type.Boolean({ description: "A process met damage in this file (writes are refused)." }),
      checks: Type.Array(DoctorCheckSchema),
    }),
  }),
};
