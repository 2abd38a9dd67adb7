// Closing waits for the connections to close, not only for the pool to ask them to.
import { DEFAULT_CONFIG } from "@claw/memory-core";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { PostgresMemory } from "../postgres-memory.js";
import { forEachTestDatabase } from "../test-support/test-database.js";
import { endPool } from "./pool.js";

/** A pool of `size` open connections, and how many of them have closed so far. */
async function openConnections(url: string, size: number) {
  const pool = new pg.Pool({ connectionString: url, max: size });
  let closed = 0;
  pool.on("connect", (client) => client.on("end", () => closed++));
  const clients = await Promise.all(Array.from({ length: size }, () => pool.connect()));
  for (const client of clients) client.release();
  return { pool, closed: () => closed };
}

forEachTestDatabase((database) => {
  describe("ending a pool", () => {
    it("resolves once every connection has closed", async () => {
      const { pool, closed } = await openConnections(database().url, 3);
      expect(pool.totalCount).toBe(3);
      await endPool(pool);
      expect(closed()).toBe(3);
    });

    it("resolves at once for a pool that never connected", async () => {
      const pool = new pg.Pool({ connectionString: database().url, max: 2 });
      await endPool(pool);
      expect(pool.ended).toBe(true);
    });

    it("is what a store's close does with the pool it made: no session of it is left", async () => {
      const name = `claw-close-${process.pid}-${Date.now()}`;
      const url = new URL(database().url);
      url.searchParams.set("application_name", name);
      const memory = await PostgresMemory.open({
        url: url.toString(),
        schema: database().newSchema(),
        settings: { ...DEFAULT_CONFIG.memory, hotCacheSize: 0 },
        embeddings: null,
      });
      await Promise.all(["a", "b", "c"].map((key) => memory.store(key, `entry ${key}`)));
      await memory.close();
      const sessions = await database().query(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1",
        [name],
      );
      expect(sessions.rows[0]?.n).toBe(0);
    });
  });
});
