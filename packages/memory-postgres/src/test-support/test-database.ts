// Test databases: PGlite (embedded PostgreSQL 18 + pgvector, WASM) served over a loopback socket
// so that the real `pg` driver connects to it, and a real server when CLAW_MEMORY_PG_URL is set.
import { randomBytes } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import pg from "pg";
import { afterAll, beforeAll, describe } from "vitest";
import { servePglite } from "../pglite-server.js";

export interface TestDatabase {
  kind: "pglite" | "server";
  url: string;
  /** Connections per pool. PGlite is one session that the socket server lends to one connection
   *  (one transaction) at a time, so more connections add no concurrency there. */
  poolMax: number;
  /** Whether pgvector is there (always on PGlite; on a server, when it can be created). */
  pgvector: boolean;
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
    newSchema: uniqueSchema,
    query: async (sql, values) => (await db.query(sql, values)) as unknown as pg.QueryResult,
    script: async (sql) => (await db.exec(sql)).at(-1)?.rows ?? [],
    async close() {
      await server.close();
      await db.close();
    },
  };
}

/** The server CLAW_MEMORY_PG_URL points at; every schema a test made is dropped at the end. */
export async function connectServer(url: string): Promise<TestDatabase> {
  const admin = new pg.Pool({ connectionString: url, max: 2 });
  const schemas: string[] = [];
  const available = await admin.query("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'");
  return {
    kind: "server",
    url,
    poolMax: 4,
    pgvector: (available.rowCount ?? 0) > 0,
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
      await admin.end();
    },
  };
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
