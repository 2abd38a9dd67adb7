// An HNSW build is sized for the rows the table holds now: ANALYZE's count lags a bulk import by up
// to half, and a build sized for half its graph goes on on disk, far slower.
import { describe, expect, it } from "vitest";
import type { Queryable } from "../db/pool.js";
import { sqlNames } from "../db/sql-names.js";
import { forEachTestDatabase } from "../test-support/test-database.js";
import { openTestMemory, schemaOf } from "../test-support/test-memory.js";
import { estimateTableRows } from "./vector-index.js";

const entries = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => ({
    key: `k${from + i}`,
    content: `entry number ${from + i}, written with a few words more to fill its row`,
  }));

forEachTestDatabase((database) => {
  describe("the rows an HNSW build is sized for", () => {
    it("counts a table never analysed, and scales the last ANALYZE's count by the pages written since", async () => {
      const memory = await openTestMemory(database());
      const names = sqlNames(schemaOf(memory));
      const db = { query: database().query } as unknown as Queryable;
      // Only this test's ANALYZEs: autovacuum would make the statistics current at any moment.
      await database().query(`ALTER TABLE ${names.memories} SET (autovacuum_enabled = false)`);
      const reltuples = async () =>
        Number(
          (
            await database().query(
              `SELECT reltuples::float8 AS n FROM pg_class WHERE oid = '${names.memories}'::regclass`,
            )
          ).rows[0]?.n,
        );
      // 600 entries: fewer than the store's own ANALYZE waits for (1,000).
      await memory.import(entries(0, 600));
      expect(await reltuples()).toBeLessThanOrEqual(0);
      expect(await estimateTableRows(db, names)).toBe(600);
      await database().query(`ANALYZE ${names.memories}`);
      expect(await reltuples()).toBe(600);
      // Another server's import: the first one's own count of changes would analyse now.
      const other = await openTestMemory(database(), { schema: schemaOf(memory) });
      await other.import(entries(600, 600));
      expect(await reltuples()).toBe(600);
      const estimate = await estimateTableRows(db, names);
      expect(estimate).toBeGreaterThan(1_100);
      expect(estimate).toBeLessThan(1_300);
    });
  });
});
