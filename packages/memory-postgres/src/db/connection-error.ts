// A server that cannot be reached (or refuses us) at open: one UNAVAILABLE MemoryError naming the
// server without its password, and what to check.
import { MemoryError } from "@claw/memory-api";
import type pg from "pg";

/** SQLSTATEs of a server that answers but refuses the login. */
const LOGIN_REFUSED = new Set(["28P01", "28000"]);
/** invalid_catalog_name: the URL's database does not exist. */
const NO_DATABASE = "3D000";

/** Why `pool.connect()` failed at open, as UNAVAILABLE: retrying may work once the server is back. */
export function connectionError(error: unknown, pool: { options: pg.PoolConfig }): MemoryError {
  const code = (error as { code?: string }).code ?? "";
  const next = LOGIN_REFUSED.has(code)
    ? "check the user name and password"
    : code === NO_DATABASE
      ? "does the database exist?"
      : "is the server running and reachable?";
  return new MemoryError(
    "UNAVAILABLE",
    `cannot connect to PostgreSQL at ${describeServer(pool.options)} (${reasonOf(error)}): ${next}`,
    { cause: error },
  );
}

/** Where the pool connects: its URL with the password masked, or its host, port, user and database. */
export function describeServer(options: pg.PoolConfig): string {
  if (options.connectionString !== undefined) return redactedUrl(options.connectionString);
  const password = options.password === undefined ? "" : ":***";
  const user = options.user === undefined ? "" : `${options.user}${password}@`;
  return `postgres://${user}${options.host ?? "localhost"}:${options.port ?? 5432}/${options.database ?? ""}`;
}

/** A connection string without its password (shown as ***) or parameters (which may hold secrets). */
export function redactedUrl(connectionString: string): string {
  return (
    urlWithoutSecrets(connectionString, "***") ?? "the configured server (its connection string is not a URL)"
  );
}

/**
 * A connection string with its password replaced by `mask` ("" drops it) and without its
 * parameters (which may hold secrets); null when it is not a URL.
 */
export function urlWithoutSecrets(connectionString: string, mask: string): string | null {
  try {
    const url = new URL(connectionString);
    if (url.password !== "") url.password = mask;
    url.search = "";
    return url.toString();
  } catch {
    return null;
  }
}

/**
 * The failure's own words. Connecting to a name with several addresses fails with an
 * AggregateError whose message is empty: its errors say what happened.
 */
function reasonOf(error: unknown): string {
  const { message, errors } = error as { message?: string; errors?: unknown[] };
  if (message) return message;
  const inner = errors?.map((e) => (e as Error).message).filter(Boolean) ?? [];
  return inner.length > 0 ? inner.join("; ") : String((error as { code?: string }).code ?? error);
}
