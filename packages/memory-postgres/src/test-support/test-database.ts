// Test databases: PGlite (embedded PostgreSQL 18 + pgvector, WASM) served over a loopback socket
// so that the real `pg` driver connects to it, and a real server when CLAW_MEMORY_PG_URL is set.
// CLAW_MEMORY_PG_REQUIRE_PGVECTOR=1 (CI) makes a server without pgvector an error, so that no
// pgvector test is skipped there.
import { randomBytes } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import pg from "pg";
import { afterAll, beforeAll, describe, onTestFinished, type TestContext } from "vitest";
import { servePglite } from "../pglite-server.js";

/** A database of its own where pgvector cannot be created; close() removes it. */
export interface DatabaseWithoutPgvector {
  url: string;
  close(): Promise<void>;
}

export interface TestDatabase {
  kind: "pglite" | "server";
  url: string;
  /** Connections per pool. PGlite is one session that the socket server lends to one connection
   *  (one transaction) at a time, so more connections add no concurrency there. */
  poolMax: number;
  /** Whether pgvector is there (always on PGlite; on a server, when it can be created). */
  pgvector: boolean;
  /**
   * Another database, on the same target, where `CREATE EXTENSION vector` fails: the JavaScript
   * vector path is tested there whether or not this one has pgvector. On a server with pgvector it
   * needs a superuser: a new role owns it, and pgvector (not a trusted extension) is refused to it;
   * on one without, it is this database.
   */
  withoutPgvector(): Promise<DatabaseWithoutPgvector>;
  /** A schema no other test uses; dropped by close() on a real server. */
  newSchema(): string;
  query(sql: string, values?: unknown[]): Promise<pg.QueryResult>;
  /** Runs several statements on one session; the rows of the last one. */
  script(sql: string): Promise<Array<Record<string, unknown>>>;
  close(): Promise<void>;
}

/** PGlite with pgvector on 127.0.0.1 (a free port). About 2 s to start. */
export async function startPglite(): Promise<TestDatabase> {
  const db = await PGlite.create({ extensions: { vector } });
  // Every pg connection shares PGlite's one session, one transaction at a time (see there).
  const server = await servePglite(db);
  return {
    kind: "pglite",
    url: server.url,
    poolMax: 2,
    pgvector: true,
    async withoutPgvector() {
      // No `extensions`: PGlite then has no vector extension to create.
      const bare = await PGlite.create();
      const bareServer = await servePglite(bare);
      return {
        url: bareServer.url,
        async close() {
          await bareServer.close();
          await bare.close();
        },
      };
    },
    newSchema: uniqueSchema,
    query: async (sql, values) => (await db.query(sql, values)) as unknown as pg.QueryResult,
    script: async (sql) => (await db.exec(sql)).at(-1)?.rows ?? [],
    async close() {
      await server.close();
      await db.close();
    },
  };
}

/**
 * The server CLAW_MEMORY_PG_URL points at; every schema a test made, and every database and role
 * withoutPgvector() made and did not remove, is dropped at the end.
 */
export async function connectServer(url: string): Promise<TestDatabase> {
  const admin = new pg.Pool({ connectionString: url, max: 2 });
  const schemas: string[] = [];
  const bareDatabases = new Set<string>();
  let missing: string | undefined;
  try {
    missing = await pgvectorMissing(admin);
  } catch (error) {
    await admin.end();
    throw error;
  }
  if (missing !== undefined && pgvectorRequired()) {
    await admin.end();
    throw new Error(
      `CLAW_MEMORY_PG_REQUIRE_PGVECTOR=1, but the tests get no pgvector on the server at CLAW_MEMORY_PG_URL: ${missing}. ` +
        "Unset CLAW_MEMORY_PG_REQUIRE_PGVECTOR to skip the pgvector tests instead.",
    );
  }

  async function dropBare(name: string): Promise<void> {
    // A connection still open (a pool not yet closed) would make DROP DATABASE fail.
    await admin.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
      [name],
    );
    await admin.query(`DROP DATABASE IF EXISTS "${name}"`);
    await admin.query(`DROP ROLE IF EXISTS "${name}"`);
    bareDatabases.delete(name);
  }

  return {
    kind: "server",
    url,
    poolMax: 4,
    pgvector: missing === undefined,
    async withoutPgvector() {
      // This database is one already (and the role may be no superuser, unable to make another).
      if (missing !== undefined) return { url, close: async () => {} };
      // The role and its database share a name. The role is neither superuser nor anything else
      // (CREATE ROLE's defaults), so pgvector, which is not a trusted extension, is refused to it;
      // template0, in case template1 has pgvector already.
      const name = uniqueSchema();
      const password = randomBytes(16).toString("hex");
      bareDatabases.add(name);
      await admin.query(`CREATE ROLE "${name}" LOGIN PASSWORD '${password}'`);
      await admin.query(`CREATE DATABASE "${name}" OWNER "${name}" TEMPLATE template0`);
      const bareUrl = new URL(url);
      bareUrl.username = name;
      bareUrl.password = password;
      bareUrl.pathname = `/${name}`;
      return { url: bareUrl.toString(), close: () => dropBare(name) };
    },
    newSchema() {
      const schema = uniqueSchema();
      schemas.push(schema);
      return schema;
    },
    query: (sql, values) => admin.query(sql, values),
    async script(sql) {
      const results = (await admin.query(sql)) as unknown as pg.QueryResult | pg.QueryResult[];
      return Array.isArray(results) ? (results.at(-1)?.rows ?? []) : results.rows;
    },
    async close() {
      for (const schema of schemas) await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      for (const name of [...bareDatabases]) await dropBare(name);
      await admin.end();
    },
  };
}

/** Whether the run must have pgvector on the server (CI sets CLAW_MEMORY_PG_REQUIRE_PGVECTOR=1). */
export function pgvectorRequired(): boolean {
  return process.env.CLAW_MEMORY_PG_REQUIRE_PGVECTOR?.trim() === "1";
}

/**
 * For a test that needs pgvector: skips it where there is none, unless pgvector is required, where
 * the test fails instead (connectServer has refused such a server already; this keeps the promise
 * local). Call it first thing in the test.
 */
/**
 * A node-postgres client on `url` for the running test, ended when it finishes: statements go as
 * the store sends them (a Buffer parameter in binary), which PGlite's own query() does not do.
 */
export async function pgClient(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  onTestFinished(() => client.end());
  return client;
}

export function needsPgvector(ctx: TestContext, database: TestDatabase): void {
  if (database.pgvector) return;
  if (pgvectorRequired()) {
    throw new Error(`CLAW_MEMORY_PG_REQUIRE_PGVECTOR=1 but the ${database.kind} database has no pgvector`);
  }
  ctx.skip();
}

/**
 * Why the stores the tests open on `admin`'s database would not get pgvector, or undefined when
 * they would: it must be installed on the server, and created in the database already or
 * creatable by this role (pgvector is not a trusted extension). The creation is tried and rolled
 * back; a store of another test file that creates it meanwhile counts as created.
 */
async function pgvectorMissing(admin: pg.Pool): Promise<string | undefined> {
  const installed = async () =>
    (await admin.query("SELECT 1 FROM pg_extension WHERE extname = 'vector'")).rowCount === 1;
  const available = await admin.query("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'");
  if (available.rowCount === 0) {
    return "pgvector is not installed on the server (../shared/tools/install-pgvector builds it into Debian's PostgreSQL, as .ci/run does)";
  }
  if (await installed()) return undefined;
  const client = await admin.connect();
  let refused: string | undefined;
  try {
    await client.query("BEGIN");
    await client.query("CREATE EXTENSION IF NOT EXISTS vector").catch((error: Error) => {
      refused = error.message;
    });
    await client.query("ROLLBACK");
  } finally {
    client.release();
  }
  if (refused === undefined || (await installed())) return undefined;
  return `this role cannot create the vector extension (${refused}); connect as a superuser or run CREATE EXTENSION vector in the database first`;
}

/** The databases every PostgreSQL test runs against: PGlite always, a real server when configured. */
export function testDatabaseTargets(): Array<{ name: string; start: () => Promise<TestDatabase> }> {
  const url = process.env.CLAW_MEMORY_PG_URL?.trim();
  const targets = [{ name: "pglite", start: startPglite }];
  if (url) targets.push({ name: "server", start: () => connectServer(url) });
  return targets;
}

/**
 * Runs `body` once per target in testDatabaseTargets(), inside a describe named after it, with the
 * database started before its tests and closed after them.
 */
export function forEachTestDatabase(body: (database: () => TestDatabase) => void): void {
  for (const target of testDatabaseTargets()) {
    describe(target.name, () => {
      let database: TestDatabase | undefined;
      // Starting PGlite takes ~2 s, more on a loaded machine.
      beforeAll(async () => {
        database = await target.start();
      }, 60_000);
      afterAll(() => database?.close());
      body(() => database as TestDatabase);
    });
  }
}

function uniqueSchema(): string {
  return `claw_test_${randomBytes(6).toString("hex")}`;
}
