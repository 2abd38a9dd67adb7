import { MemoryError } from "@claw/memory-api";
import { connectionError } from "./connection-error.js";
import { MIGRATIONS, SCHEMA_VERSION } from "./migrations.js";
import { type Pool, type Queryable, typed } from "./pool.js";
import type { SqlNames } from "./sql-names.js";

/** The advisory lock's first key: "claw" in ASCII. The second is a hash of the schema's name. */
const LOCK_CLASS = 0x636c6177;

/**
 * Runs `fn` holding the schema's advisory lock on one session, so that servers starting together
 * migrate (and change the embedding fingerprint) one at a time instead of racing.
 */
export async function withSchemaLock<T>(
  pool: Pool,
  names: SqlNames,
  fn: (client: Queryable) => Promise<T>,
): Promise<T> {
  // The first connection a store makes: failing here means the server is not there for us.
  const client = await pool.connect().catch((error: unknown) => {
    throw connectionError(error, pool);
  });
  try {
    await client.query("SELECT pg_advisory_lock($1, hashtext($2))", [LOCK_CLASS, names.raw]);
    try {
      return await fn(typed(client));
    } finally {
      await client.query("SELECT pg_advisory_unlock($1, hashtext($2))", [LOCK_CLASS, names.raw]);
    }
  } finally {
    client.release();
  }
}

/**
 * Creates the schema and applies the migrations it lacks, each in its own transaction with its
 * version recorded in `claw_meta`. Must run under withSchemaLock. Returns the version now in place.
 * A database written by a newer claw-memory is refused rather than downgraded.
 */
export async function migrate(client: Queryable, names: SqlNames): Promise<number> {
  await client.query(`CREATE SCHEMA IF NOT EXISTS ${names.schema}`);
  await client.query(`CREATE TABLE IF NOT EXISTS ${names.meta} (key text PRIMARY KEY, value text NOT NULL)`);
  const current = await schemaVersion(client, names);
  if (current > SCHEMA_VERSION) {
    throw new MemoryError(
      "UNAVAILABLE",
      `the database schema ${names.raw} is at version ${current}, newer than this claw-memory knows (${SCHEMA_VERSION}): upgrade @claw/memory-postgres`,
    );
  }
  for (const migration of MIGRATIONS) {
    if (migration.version <= current) continue;
    await client.query("BEGIN");
    try {
      for (const statement of migration.statements(names)) await client.query(statement);
      await client.query(
        `INSERT INTO ${names.meta} (key, value) VALUES ('schema_version', $1)
         ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
        [String(migration.version)],
      );
      await client.query("COMMIT");
    } catch (error) {
      // The error that brought us here is the one to report; a failed ROLLBACK ends with the connection.
      await client.query("ROLLBACK").catch(() => {});
      throw error;
    }
  }
  return SCHEMA_VERSION;
}

export async function schemaVersion(client: Queryable, names: SqlNames): Promise<number> {
  const { rows } = await client.query<{ value: string }>(
    `SELECT value FROM ${names.meta} WHERE key = 'schema_version'`,
  );
  return rows[0] === undefined ? 0 : Number(rows[0].value);
}
