// The change stamp moves with every kind of write, in the write's own statement or transaction, so
// another server's cached recall is never served after a write it does not hold.
import pg from "pg";
import { describe, expect, it, onTestFinished } from "vitest";
import { forEachTestDatabase } from "../test-support/test-database.js";
import { openTestMemory, schemaOf } from "../test-support/test-memory.js";
import { compactChanges, readChanges } from "./change-stamp.js";
import { sqlNames } from "./sql-names.js";

forEachTestDatabase((database) => {
  async function twoServers(now?: () => Date) {
    const a = await openTestMemory(database(), { now });
    const b = await openTestMemory(database(), { schema: schemaOf(a), now });
    const pool = new pg.Pool({ connectionString: database().url, max: 1 });
    onTestFinished(() => pool.end());
    return { a, b, names: sqlNames(schemaOf(a)), pool };
  }
  const contents = (entries: Array<{ content: string }>) => entries.map((e) => e.content).sort();

  describe("the change stamp", () => {
    it("moves with each kind of write, so the other server's cached recall is not served after it", async () => {
      let clock = new Date("2026-03-01T10:00:00.000Z");
      const { a, b } = await twoServers(() => clock);
      const seen = async () => contents(await b.recall("tea"));

      await a.store("green", "green tea in the morning");
      expect(await seen()).toEqual(["green tea in the morning"]);
      // One statement: the upsert and the stamp's move.
      await a.store("green", "green tea at noon");
      expect(await seen()).toEqual(["green tea at noon"]);
      // A session turn: a transaction.
      await a.store("turn", "we talked about black tea", { sessionId: "s1" });
      expect(await seen()).toEqual(["green tea at noon", "we talked about black tea"]);
      await a.import([{ key: "oolong", content: "oolong tea in the evening", category: "core" }]);
      expect(await seen()).toHaveLength(3);
      expect(await a.forget("oolong")).toBe(true);
      expect(await seen()).toEqual(["green tea at noon", "we talked about black tea"]);
      await a.restore("oolong", 1);
      expect(await seen()).toHaveLength(3);
      expect(await a.forgetMany([{ key: "oolong" }])).toBe(1);
      expect(await seen()).toHaveLength(2);
      expect(await a.purgeSession("s1")).toBe(1);
      expect(await seen()).toEqual(["green tea at noon"]);
      await a.store("white", "white tea for a day", { ttl: "1d" });
      expect(await seen()).toHaveLength(2);
      clock = new Date("2026-03-03T10:00:00.000Z");
      expect(await a.purgeExpired()).toBe(1);
      expect(await seen()).toEqual(["green tea at noon"]);
      expect(await a.purgeNamespace("default")).toBe(1);
      expect(await seen()).toEqual([]);
    });

    it("holds across reads and refused writes, and moves once per write", async () => {
      const { a, names, pool } = await twoServers();
      const before = await readChanges(pool, names);
      expect(before).toBe(await readChanges(pool, names));
      await a.store("k", "a fact");
      const after = await readChanges(pool, names);
      expect(after).not.toBe(before);
      // A refused write leaves it where it was.
      await expect(a.store("", "no key")).rejects.toMatchObject({ code: "INVALID_INPUT" });
      expect(await readChanges(pool, names)).toBe(after);
      const total = async () =>
        Number((await database().query(`SELECT sum(n) AS total FROM ${names.changeCounts}`)).rows[0]?.total);
      const counted = await total();
      await a.store("k2", "another fact");
      await a.import([
        { key: "i1", content: "one" },
        { key: "i2", content: "two" },
      ]);
      expect(await total()).toBe(counted + 2);
    });

    it("folds the counters of backends that have gone into one row without moving", async () => {
      const { a, names, pool } = await twoServers();
      await a.store("k", "a fact");
      // Counters left by 80 connections long closed (no backend has these ids).
      await database().query(
        `INSERT INTO ${names.changeCounts} (backend, n) SELECT -g, g FROM generate_series(1, 80) g`,
      );
      const stamp = await readChanges(pool, names);
      const rows = async () =>
        Number((await database().query(`SELECT count(*) AS rows FROM ${names.changeCounts}`)).rows[0]?.rows);
      // The read saw more than 64 rows and folded them.
      expect(await rows()).toBeLessThanOrEqual(3);
      expect(await readChanges(pool, names)).toBe(stamp);
      await compactChanges(pool, names);
      expect(await readChanges(pool, names)).toBe(stamp);
      const { rows: zero } = await database().query(`SELECT n FROM ${names.changeCounts} WHERE backend = 0`);
      expect(Number(zero[0]?.n)).toBeGreaterThanOrEqual((80 * 81) / 2);
      await a.store("k", "the fact, changed");
      expect(await readChanges(pool, names)).not.toBe(stamp);
    });
  });
});
