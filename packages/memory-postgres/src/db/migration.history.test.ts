// A schema migrated before history and expiry (migration 3) gains them in place, entries intact.
import { describe, expect, it } from "vitest";
import { forEachTestDatabase } from "../test-support/test-database.js";
import { openTestMemory } from "../test-support/test-memory.js";
import { SCHEMA_VERSION } from "./migrations.js";

forEachTestDatabase((database) => {
  describe("migration 4 (history and expiry)", () => {
    it("keeps a migration-3 store's entries as version 1 of unknown origin, and records from then on", async () => {
      const schema = database().newSchema();
      const before = await openTestMemory(database(), { schema });
      await before.store("tea", "green tea in the morning", { metadata: { cups: 2 } });
      await before.close();
      // Back to what migration 3 left.
      const q = `"${schema}"`;
      for (const statement of [
        `DROP TRIGGER claw_archive_version ON ${q}.claw_memories`,
        `DROP FUNCTION ${q}.claw_archive_version()`,
        `DROP TABLE ${q}.claw_memory_versions`,
        `ALTER TABLE ${q}.claw_memories DROP COLUMN expires_at, DROP COLUMN version,
           DROP COLUMN change_action, DROP COLUMN change_actor`,
        `UPDATE ${q}.claw_meta SET value = '3' WHERE key = 'schema_version'`,
      ]) {
        await database().query(statement);
      }

      const after = await openTestMemory(database(), { schema });
      expect((await after.status()).schemaVersion).toBe(SCHEMA_VERSION);
      expect(SCHEMA_VERSION).toBe(10);
      expect((await after.get("tea"))?.metadata).toEqual({ cups: 2 });
      expect((await after.history("tea")).map((v) => [v.version, v.action, v.actor, v.current])).toEqual([
        [1, "create", "unknown", true],
      ]);
      await after.store("tea", "green tea twice a day", { ttl: "30d" });
      expect((await after.history("tea")).map((v) => [v.version, v.action, v.content])).toEqual([
        [2, "update", "green tea twice a day"],
        [1, "create", "green tea in the morning"],
      ]);
      expect((await after.get("tea"))?.expiresAt).toBeDefined();
      await after.close();
    });
  });
  describe("migration 6 (a short pending list for the full-text index)", () => {
    it("limits the full-text index's pending list to 512 kB", async () => {
      const schema = database().newSchema();
      await openTestMemory(database(), { schema });
      const { rows } = await database().query(
        `SELECT c.reloptions FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = $1 AND c.relname = 'claw_memories_fts'`,
        [schema],
      );
      expect(rows).toEqual([{ reloptions: ["gin_pending_list_limit=512"] }]);
    });
  });
});
