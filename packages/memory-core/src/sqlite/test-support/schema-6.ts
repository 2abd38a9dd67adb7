import type { Database } from "better-sqlite3";

/** Undoes what schema 7 added (history, expiry, the metadata index), leaving a store as schema 6 wrote it. */
export function backToSchema6(db: Database): void {
  db.exec(`
    DROP INDEX memories_expiring;
    DROP TABLE memory_versions;
    DROP TABLE memory_fields;
    ALTER TABLE memories DROP COLUMN expires_at;
    ALTER TABLE memories DROP COLUMN version;
    ALTER TABLE memories DROP COLUMN change_action;
    ALTER TABLE memories DROP COLUMN change_actor;
  `);
  db.prepare("UPDATE meta SET value = '6' WHERE key = 'schema_version'").run();
}
