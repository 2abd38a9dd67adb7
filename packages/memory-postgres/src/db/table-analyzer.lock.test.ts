// ANALYZE gives way to a lock held elsewhere instead of waiting for it: an index built concurrently
// (the vector index after a bulk import) holds the table's lock and waits for ANALYZE's
// transaction, and the two deadlocked. Put off, ANALYZE runs again on a later write.
import type { Logger } from "@claw/memory-api";
import pg from "pg";
import { describe, expect, it } from "vitest";
import {
  forEachTestDatabase,
  type TestDatabase,
  testDatabaseTargets,
} from "../test-support/test-database.js";
import { openTestMemory, schemaOf } from "../test-support/test-memory.js";
import { typed } from "./pool.js";
import { sqlNames } from "./sql-names.js";
import { createTableAnalyzer } from "./table-analyzer.js";

function recordingLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  const none = () => {};
  return { warnings, debug: none, info: none, error: none, warn: (message) => warnings.push(message) };
}

/** A store of 1,200 entries whose table has never been analysed (written row by row). */
async function unanalysed(database: TestDatabase) {
  const memory = await openTestMemory(database);
  const schema = schemaOf(memory);
  // Nobody else analyses it meanwhile.
  await database.query(`ALTER TABLE "${schema}".claw_memories SET (autovacuum_enabled = false)`);
  const values = Array.from({ length: 1200 }, (_, i) => `('k${i}', 'entry ${i}')`).join(", ");
  await database.query(
    `INSERT INTO "${schema}".claw_memories (id, key, content, content_hash, fts, created_at, updated_at)
     SELECT 'id-' || key, key, content, md5(content), to_tsvector('simple', content), now(), now()
     FROM (VALUES ${values}) v(key, content)`,
  );
  const rows = async () => {
    const { rows: found } = await database.query(
      `SELECT reltuples::float8 AS n FROM pg_class WHERE oid = '"${schema}".claw_memories'::regclass`,
    );
    return Number(found[0]?.n);
  };
  expect(await rows()).toBeLessThanOrEqual(0);
  return { schema, rows };
}

forEachTestDatabase((database) => {
  describe("ANALYZE put off by a lock", () => {
    it("counts the changes again and analyses on a later write, without a warning", async () => {
      const { schema, rows } = await unanalysed(database());
      let refusals = 1;
      const db = typed({
        query: (config: { text: string; values?: unknown[] }) => {
          if (config.text.startsWith("DO $analyze$") && refusals-- > 0) {
            return Promise.reject(
              Object.assign(new Error("canceling statement due to lock timeout"), { code: "55P03" }),
            );
          }
          return database().query(config.text, config.values);
        },
      } as unknown as pg.Pool);
      const logger = recordingLogger();
      const analyzer = createTableAnalyzer(db, sqlNames(schema), logger);
      await analyzer.changed(1200);
      expect(await rows()).toBeLessThanOrEqual(0);
      // One more row written: the 1,200 put off count towards it.
      await analyzer.changed(1);
      expect(await rows()).toBe(1200);
      expect(logger.warnings).toEqual([]);
    });
  });
});

for (const target of testDatabaseTargets().filter((t) => t.name === "server")) {
  describe(`${target.name}: ANALYZE beside a lock held by another session`, () => {
    it("returns instead of waiting while the lock is held, and analyses once it is released", async () => {
      const database = await target.start();
      try {
        const { schema, rows } = await unanalysed(database);
        const holder = new pg.Client({ connectionString: database.url });
        await holder.connect();
        try {
          // What CREATE INDEX CONCURRENTLY holds for the whole build.
          await holder.query("BEGIN");
          await holder.query(`LOCK TABLE "${schema}".claw_memories IN SHARE UPDATE EXCLUSIVE MODE`);
          const pool = new pg.Pool({ connectionString: database.url, max: 1 });
          try {
            const logger = recordingLogger();
            const analyzer = createTableAnalyzer(typed(pool), sqlNames(schema), logger);
            await analyzer.changed(1200);
            expect(await rows()).toBeLessThanOrEqual(0);
            await holder.query("COMMIT");
            await analyzer.changed(1);
            expect(await rows()).toBe(1200);
            expect(logger.warnings).toEqual([]);
          } finally {
            await pool.end();
          }
        } finally {
          await holder.end();
        }
      } finally {
        await database.close();
      }
    });
  });
}
