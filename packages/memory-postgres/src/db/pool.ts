// The connection pool and how its failures become MemoryErrors.
import { isMemoryError } from "@claw/memory-api";
import { storageFailure } from "@claw/memory-core";
import pg from "pg";
import { preparesStatements, statementName } from "./statement-names.js";

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;
/** Anything that runs a query: the pool, or a client inside a transaction. */
export type Queryable = Pick<pg.Pool, "query">;

const INT8 = 20;
const TIMESTAMPTZ = 1184;
const parseTimestamp = pg.types.getTypeParser(TIMESTAMPTZ);

/**
 * Row ids (bigint) come back as numbers (they stay far below 2^53) and timestamps as RFC 3339
 * UTC strings with milliseconds, the form entries carry, whatever the session's time zone.
 */
const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: "text" | "binary") => {
    if (oid === INT8) return (value: string) => Number(value);
    if (oid === TIMESTAMPTZ) return (value: string) => (parseTimestamp(value) as Date).toISOString();
    return pg.types.getTypeParser(oid, format);
  }) as pg.CustomTypesConfig["getTypeParser"],
};

export interface PoolOptions {
  connectionString: string;
  max: number;
  /** How long to wait for a connection (ms). */
  connectionTimeoutMillis?: number;
}

export function createPool(options: PoolOptions): Pool {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max,
    connectionTimeoutMillis: options.connectionTimeoutMillis ?? 10_000,
    application_name: "claw-memory",
    onConnect: configureSession,
  });
  // An idle client that loses its connection emits on the pool; without a listener Node would
  // crash. The pool replaces the client; the next query reports any lasting failure.
  pool.on("error", () => {});
  return pool;
}

/**
 * Ends `pool` and resolves once every one of its connections is closed. pg's `pool.end()` resolves
 * as soon as it has asked its idle clients to end, while their sessions are still open on the
 * server: a DROP DATABASE right after it would fail ("being accessed by other users"), and a
 * session terminated meanwhile would raise its error on a client the caller thinks gone.
 */
export async function endPool(pool: pg.Pool): Promise<void> {
  let open = pool.totalCount;
  const closed = new Promise<void>((resolve) => {
    if (open === 0) return resolve();
    const removed = () => {
      if (--open > 0) return;
      pool.off("remove", removed);
      resolve();
    };
    pool.on("remove", removed);
  });
  await pool.end();
  await closed;
}

/**
 * SQLSTATEs of a session setting the server refuses: a pgvector before 0.8 reserves the `hnsw.`
 * prefix without this setting (invalid name, or unrecognized), or knows no such value.
 */
const SETTING_REFUSED = new Set(["42602", "42704", "22023"]);

/**
 * Runs on every new connection, before the pool hands it out: one query at a time on the client
 * (a `connect` listener's query would race the caller's first one). pgvector ≥ 0.8 then keeps
 * scanning the HNSW graph until a filtered query has enough rows; without pgvector the setting is
 * an inert placeholder, and a pgvector that refuses it keeps its default scan. Not a startup
 * parameter (`options=-c …`): PgBouncer refuses those unless told to ignore them.
 */
async function configureSession(client: pg.ClientBase): Promise<void> {
  try {
    await client.query("SET hnsw.iterative_scan = 'relaxed_order'");
  } catch (error) {
    if (!SETTING_REFUSED.has((error as { code?: string }).code ?? "")) throw error;
  }
}

/**
 * `target` with this package's type parsing on every query, whoever configured the pool: a pool
 * the caller passes in keeps its own parsers for its other users. With `prepared`, each statement
 * is a named prepared statement (statement-names.ts), parsed and planned once per connection.
 */
export function typed<T extends Pick<pg.Pool, "query">>(target: T, prepared = false): Queryable {
  return {
    query: ((text: string, values?: unknown[]) => {
      const name = prepared ? statementName(text) : undefined;
      return target.query(name === undefined ? { text, values, types } : { name, text, values, types });
    }) as Queryable["query"],
  };
}

/** SQLSTATEs after which the same call may succeed: serialization failure, deadlock, connection loss. */
const RETRYABLE = new Set(["40001", "40P01", "57P01", "08000", "08003", "08006", "53300"]);

/** A database failure as a STORAGE MemoryError (MemoryErrors and aborts pass through). */
export function storageError(error: unknown, what = "storage failure"): unknown {
  if (isMemoryError(error) || (error as Error)?.name === "AbortError") return error;
  const code = (error as { code?: string }).code;
  return storageFailure(error, what, {
    retryable: code !== undefined && (RETRYABLE.has(code) || code.startsWith("08")),
  });
}

/** Runs `fn` in one transaction on one client; rolls back when it throws. */
export async function inTransaction<T>(
  pool: Pool,
  fn: (db: Queryable, client: PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    const result = await fn(typed(client, preparesStatements(pool)), client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    // The error that brought us here is the one to report; a failed ROLLBACK ends with the connection.
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
