import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type pg from "pg";
import { from as copyFrom } from "pg-copy-streams";

/**
 * Streams `buffers` (a whole COPY's data, BinaryCopyWriter's) into `COPY … FROM STDIN` on `client`;
 * resolves with the rows the server took. A failure rejects with the server's error, and the
 * client's transaction is then aborted, as after any failed statement.
 */
export async function copyIn(
  client: pg.ClientBase,
  sql: string,
  buffers: readonly Buffer[],
): Promise<number> {
  const stream = client.query(copyFrom(sql));
  await pipeline(Readable.from(buffers, { objectMode: false }), stream);
  return stream.rowCount;
}

/**
 * Whether the server behind `db` takes `COPY … FROM STDIN`: PGlite (PostgreSQL compiled to
 * WebAssembly, behind pglite-server's socket) stops at it, so bulk writes there keep to INSERTs.
 */
export async function acceptsCopyIn(db: Pick<pg.Pool, "query">): Promise<boolean> {
  const { rows } = await db.query<{ version: string }>("SELECT version() AS version");
  return !/wasm|emscripten/i.test(rows[0]?.version ?? "");
}
