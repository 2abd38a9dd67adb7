// Statements are prepared once per connection (statement-names.ts), unless the option is off.
import { DEFAULT_CONFIG } from "@claw/memory-core";
import pg from "pg";
import { describe, expect, it, onTestFinished } from "vitest";
import { PostgresMemory } from "../postgres-memory.js";
import { forEachTestDatabase } from "../test-support/test-database.js";
import { statementName } from "./statement-names.js";

forEachTestDatabase((database) => {
  /** A store on a one-connection pool, and the names of the statements prepared on it. */
  async function openOn(preparedStatements: boolean | undefined) {
    const pool = new pg.Pool({ connectionString: database().url, max: 1 });
    const memory = await PostgresMemory.open({
      pool,
      schema: database().newSchema(),
      settings: { ...DEFAULT_CONFIG.memory, hotCacheSize: 0 },
      embeddings: null,
      ...(preparedStatements === undefined ? {} : { preparedStatements }),
    });
    onTestFinished(async () => {
      await memory.close();
      await pool.end();
    });
    const prepared = async () =>
      (
        await pool.query<{ name: string }>(
          // On PGlite, the socket server prefixes each connection's names (pglite-server.ts).
          "SELECT name FROM pg_prepared_statements WHERE name ~ '(^|_)claw_[0-9a-f]{16}$' ORDER BY name",
        )
      ).rows.map((r) => r.name);
    return { memory, prepared };
  }

  describe("prepared statements", () => {
    it("are prepared once per connection by default, and reused", async () => {
      const { memory, prepared } = await openOn(undefined);
      await memory.store("tea", "green tea in the morning");
      expect((await memory.recall("green tea", { mode: "bm25" }))[0]?.key).toBe("tea");
      const after = await prepared();
      expect(after.length).toBeGreaterThan(1);
      await memory.store("coffee", "black coffee at noon");
      expect((await memory.recall("black coffee", { mode: "bm25" }))[0]?.key).toBe("coffee");
      // The same statements again: nothing new to prepare.
      expect(await prepared()).toEqual(after);
    });

    it("are not prepared with preparedStatements: false", async () => {
      const { memory, prepared } = await openOn(false);
      await memory.store("tea", "green tea in the morning");
      expect((await memory.recall("green tea", { mode: "bm25" }))[0]?.key).toBe("tea");
      expect(await prepared()).toEqual([]);
    });

    it("name a text by its hash: the same text, the same name; another text, another", () => {
      const name = statementName("SELECT 1 AS a");
      expect(name).toMatch(/^claw_[0-9a-f]{16}$/);
      expect(statementName("SELECT 1 AS a")).toBe(name);
      expect(statementName("SELECT 2 AS a")).not.toBe(name);
    });
  });
});
