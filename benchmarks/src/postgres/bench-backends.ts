import { join } from "node:path";
import { SqliteMemory } from "@claw/memory-core";
import { PostgresMemory } from "@claw/memory-postgres";
import { servePglite } from "@claw/memory-postgres/pglite-server";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import pg from "pg";
import { type Backend, countingPool } from "./measure-backend.js";

/**
 * The stores measured at one corpus size, each empty: SQLite (a file in `workDir`), PGlite
 * (embedded PostgreSQL + pgvector over a loopback socket) when `pglite`, and a real server (a
 * schema of its own, dropped at close) when `serverUrl` is set.
 */
export async function openBackends(options: {
  workDir: string;
  label: string;
  pglite: boolean;
  serverUrl: string | undefined;
}): Promise<Backend[]> {
  let files = 0;
  const backends: Backend[] = [
    {
      name: "sqlite",
      open: async (embeddings, settings) =>
        SqliteMemory.open({
          path: join(options.workDir, `postgres-suite-${options.label}.db`),
          settings,
          embeddings,
        }),
      openEmpty: async (embeddings, settings) =>
        SqliteMemory.open({
          path: join(options.workDir, `postgres-suite-${options.label}-${++files}.db`),
          settings,
          embeddings,
        }),
      close: async () => {},
    },
  ];
  if (options.pglite) {
    const pglite = await PGlite.create({ extensions: { vector } });
    const socket = await servePglite(pglite);
    const pglitePool = countingPool(socket.url);
    backends.push({
      name: "pglite",
      open: (embeddings, settings) => PostgresMemory.open({ pool: pglitePool.pool, settings, embeddings }),
      openEmpty: (embeddings, settings) =>
        PostgresMemory.open({ pool: pglitePool.pool, schema: `claw_empty_${++files}`, settings, embeddings }),
      close: async () => {
        await pglitePool.pool.end();
        await socket.close();
        await pglite.close();
      },
      statements: pglitePool.count,
    });
  }
  const serverUrl = options.serverUrl;
  if (serverUrl) {
    const schema = `claw_bench_${Date.now()}`;
    const schemas = [schema];
    const serverPool = countingPool(serverUrl);
    backends.push({
      name: "server",
      open: (embeddings, settings) =>
        PostgresMemory.open({ pool: serverPool.pool, schema, settings, embeddings }),
      openEmpty: (embeddings, settings) => {
        const another = `${schema}_${schemas.length}`;
        schemas.push(another);
        return PostgresMemory.open({ pool: serverPool.pool, schema: another, settings, embeddings });
      },
      // The server is not ours: nothing of the run stays there.
      close: async () => {
        await serverPool.pool.end();
        for (const name of schemas) await dropSchema(serverUrl, name);
      },
      statements: serverPool.count,
    });
  }
  return backends;
}

/** Closes every backend (the server's schema dropped) even when another fails to; rethrows the first failure. */
export async function closeAll(backends: Backend[]): Promise<void> {
  const closed = await Promise.allSettled(backends.map((backend) => backend.close()));
  const failed = closed.find((result): result is PromiseRejectedResult => result.status === "rejected");
  if (failed !== undefined) throw failed.reason;
}

/** Drops a schema the suite made on a real server, with everything in it. */
async function dropSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}
