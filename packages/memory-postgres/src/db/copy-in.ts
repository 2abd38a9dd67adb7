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
 * Whether imports on the server behind `db` may go by COPY: it takes `COPY … FROM STDIN` (PGlite,
 * PostgreSQL compiled to WebAssembly behind pglite-server's socket, stops at it), and this role may
 * create the temporary staging table (a database can revoke TEMPORARY). Otherwise bulk writes keep
 * to INSERTs.
 */
export async function acceptsCopyIn(db: Pick<pg.Pool, "query">): Promise<boolean> {
  const { rows } = await db.query<{ version: string; temporary: boolean }>(
    "SELECT version() AS version, has_database_privilege(current_database(), 'TEMPORARY') AS temporary",
  );
  const [server] = rows;
  return server?.temporary === true && !/wasm|emscripten/i.test(server.version);
}
