// A store written before history and expiry (schema 6) gains them in place, entries intact.
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { backToSchema6 } from "../test-support/schema-6.js";
import { openTestMemory, tempDir } from "../test-support/temp-memory.js";
import { SCHEMA_VERSION } from "./schema.js";

describe("migration to schema 7 (history and expiry)", () => {
  it("keeps a schema-6 store's entries as version 1 of unknown origin, and records from then on", async () => {
    const path = join(tempDir(), "brain.db");
    const before = openTestMemory({ path });
    await before.store("tea", "green tea in the morning", { metadata: { cups: 2 } });
    await before.close();
    const db = new Database(path);
    backToSchema6(db);
    db.close();

    const after = openTestMemory({ path });
    expect((await after.status()).schemaVersion).toBe(SCHEMA_VERSION);
    expect(SCHEMA_VERSION).toBe(7);
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
    expect((await after.recall("green tea")).map((e) => e.key)).toEqual(["tea"]);
    await after.close();
  });
});
