// POST /v1/admin/doctor (admin token): `claw-memory doctor`'s read-only checks of the server's own
// SQLite database, on a connection of their own while the store stays in use.
import { MemoryError } from "@claw/memory-api";
import { doctorStore } from "@claw/memory-core";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { FastifyInstance } from "fastify";
import { doctorSchema } from "../schemas/doctor-schemas.js";
import type { ServerContext } from "../server-context.js";
import { emptyBodyIsObject } from "./empty-body.js";

export function registerDoctorRoute(app: FastifyInstance, ctx: ServerContext): void {
  app
    .withTypeProvider<TypeBoxTypeProvider>()
    .post(
      "/v1/admin/doctor",
      { config: { access: "admin" }, preValidation: emptyBodyIsObject, schema: doctorSchema },
      async () => {
        const status = await ctx.memory.status();
        if (status.backend !== "sqlite" || status.path === undefined) {
          throw new MemoryError(
            "UNAVAILABLE",
            `the doctor checks SQLite stores; this server runs on ${status.backend} (PostgreSQL: amcheck, pg_dump)`,
          );
        }
        const report = doctorStore(status.path);
        return { ok: report.ok, marked: report.marked, checks: report.checks };
      },
    );
}
