// GET /v1/export streams NDJSON out; POST /v1/import streams NDJSON in, chunk by chunk.
import { Readable } from "node:stream";
import type { MemoryEntry } from "@claw/memory-api";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { defaultNamespace, mayUse, namespaceSelection, singleNamespace } from "../auth/namespace-scope.js";
import { requestActor } from "../auth/request-actor.js";
import { HttpError } from "../errors/error-mapping.js";
import { exportSchema, importSchema, NDJSON, NDJSON_TYPES } from "../schemas/transfer-schemas.js";
import { entryJson, type ServerContext } from "../server-context.js";
import { importNdjson } from "../transfer/import-ndjson.js";
import { whereFromQuery } from "./where-query.js";

/** Lines are sent in batches of about this many characters. */
const EXPORT_BATCH_CHARS = 64 * 1024;

export function registerTransferRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const { memory, limits } = ctx;

  // The import reads the request stream itself: fastify hands it over unparsed (and so without
  // applying the body limit, which the import applies per line instead).
  app.addContentTypeParser(NDJSON_TYPES, (_request, payload, done) => done(null, payload));

  api.get("/v1/export", { schema: exportSchema, config: { access: "read" } }, async (request, reply) => {
    const { namespace, where, ...rest } = request.query;
    const filter = { ...rest, where: whereFromQuery(where) };
    const selection = namespaceSelection(request.principal, namespace, "all");
    const namespaces = selection.all ? ["*"] : selection.namespaces;
    // Bad filters fail here, as a 400, before anything is read.
    const streams = namespaces.map((ns) => memory.exportStream({ ...filter, namespace: ns }));
    const chunks = ndjsonChunks(streams)[Symbol.asyncIterator]();
    // The first chunk is read before the status line goes out, so a store that cannot be read is
    // still an error response; a failure later can only cut the stream (and is logged).
    const first = await chunks.next();
    reply.type(`${NDJSON}; charset=utf-8`);
    // The schema describes one line; the type provider cannot express a stream of them.
    return reply.send(Readable.from(resume(first, chunks, ctx.logger)) as never);
  });

  api.post(
    "/v1/import",
    {
      schema: importSchema,
      config: { access: "write" },
      onRequest: async (request) => requireNdjson(request),
    },
    async (request) => {
      const principal = request.principal;
      const { namespace, onConflict, dryRun } = request.query;
      const fallback =
        namespace === undefined ? defaultNamespace(principal) : singleNamespace(principal, namespace);
      const status = await memory.status();
      return importNdjson(memory, request.body as AsyncIterable<Buffer>, {
        settings: ctx.config.memory,
        dimensions: status.embedding?.dimensions,
        maxLineBytes: limits.bodyLimitBytes,
        chunkSize: limits.importChunkSize,
        errorsReported: limits.importErrorsReported,
        defaultNamespace: fallback,
        mayUse: (ns) => mayUse(principal, ns),
        onConflict,
        dryRun,
        actor: requestActor(principal),
      });
    },
  );
}

function requireNdjson(request: FastifyRequest): void {
  const type = (request.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  if (!NDJSON_TYPES.includes(type)) {
    throw new HttpError(
      "UNSUPPORTED_MEDIA_TYPE",
      `send the entries as ${NDJSON} (one JSON object per line), got ${type === "" ? "no Content-Type" : type}`,
    );
  }
}

/** NDJSON lines of every stream in turn, in chunks of about EXPORT_BATCH_CHARS. */
async function* ndjsonChunks(streams: readonly AsyncIterable<MemoryEntry>[]): AsyncGenerator<string> {
  let buffer = "";
  for (const entries of streams) {
    for await (const entry of entries) {
      buffer += `${JSON.stringify(entryJson(entry))}\n`;
      if (buffer.length >= EXPORT_BATCH_CHARS) {
        yield buffer;
        buffer = "";
      }
    }
  }
  if (buffer !== "") yield buffer;
}

/** The chunks again, the first one already read; a failure mid-stream is logged, then cuts it. */
async function* resume(
  first: IteratorResult<string>,
  rest: AsyncIterator<string>,
  logger: ServerContext["logger"],
): AsyncGenerator<string> {
  try {
    for (let next = first; next.done !== true; next = await rest.next()) yield next.value;
  } catch (error) {
    logger.error("export failed mid-stream: the response was cut", { error: (error as Error).message });
    throw error;
  }
}
