// POST /v1/admin/backup (admin token): the whole store as one download. memory.backup() writes it
// to a temp folder in os.tmpdir() — SQLite: a checked database file, sent as application/vnd.sqlite3;
// PostgreSQL: NDJSON of every entry with its vector, then every version of every key as a
// `{"history": …}` line — and the folder is removed once the response
// has been sent or the client has gone away.
import { createReadStream } from "node:fs";
import { mkdtemp, open, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { backupSchema, SQLITE_MEDIA_TYPE } from "../schemas/admin-schemas.js";
import { NDJSON } from "../schemas/transfer-schemas.js";
import type { ServerContext } from "../server-context.js";
import { emptyBodyIsObject } from "./empty-body.js";

/** Where the temp folders go (prefix under os.tmpdir()). */
export const BACKUP_TEMP_PREFIX = "claw-memory-backup-";

export function registerBackupRoute(app: FastifyInstance, ctx: ServerContext): void {
  app.post(
    "/v1/admin/backup",
    { config: { access: "admin" }, preValidation: emptyBodyIsObject, schema: backupSchema },
    async (_request, reply) => {
      const dir = await mkdtemp(join(tmpdir(), BACKUP_TEMP_PREFIX));
      let removed = false;
      const remove = () => {
        if (removed) return;
        removed = true;
        rm(dir, { recursive: true, force: true }).catch((error: Error) =>
          ctx.logger.warn("could not remove a backup's temp folder", { dir, error: error.message }),
        );
      };
      let sqlite: boolean;
      let report: Awaited<ReturnType<ServerContext["memory"]["backup"]>>;
      try {
        report = await ctx.memory.backup(join(dir, "backup"));
        sqlite = await isSqliteFile(report.path);
      } catch (error) {
        remove();
        throw error;
      }
      const file = createReadStream(report.path);
      // Sent, failed or cut off by the client: the stream closes either way.
      file.on("close", remove);
      reply.raw.on("close", () => {
        file.destroy();
        remove();
      });
      const stamp = new Date()
        .toISOString()
        .replace(/\.\d+Z$/, "Z")
        .replace(/:/g, "-");
      const name = `claw-memory-${stamp}.${sqlite ? "db" : "ndjson"}`;
      reply
        .type(sqlite ? SQLITE_MEDIA_TYPE : `${NDJSON}; charset=utf-8`)
        .header("content-disposition", `attachment; filename="${name}"`)
        .header("content-length", String(report.bytes))
        .header("x-claw-backup-entries", String(report.entries));
      // The schema describes the file; the type provider cannot express a stream.
      return reply.send(file);
    },
  );
}

/** Whether `path` starts with SQLite's file header (else it is the NDJSON of a PostgreSQL store). */
async function isSqliteFile(path: string): Promise<boolean> {
  const handle = await open(path, "r");
  try {
    const { bytesRead, buffer } = await handle.read(Buffer.alloc(16), 0, 16, 0);
    return bytesRead === 16 && buffer.toString("latin1") === "SQLite format 3\0";
  } finally {
    await handle.close();
  }
}
