// A store written before metadata (schema 5) gains the column in place, entries intact.
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { backToSchema6 } from "../test-support/schema-6.js";
import { openTestMemory, tempDir } from "../test-support/temp-memory.js";
import { SCHEMA_VERSION } from "./schema.js";

describe("migration to schema 6 (metadata)", () => {
  it("adds the metadata column to a schema-5 store, keeping its entries and their search", async () => {
    const path = join(tempDir(), "brain.db");
    const before = openTestMemory({ path });
    await before.store("tea", "green tea in the morning", { category: "preference" });
    await before.close();
    // Back to what schema 5 wrote: no metadata column (nor what schema 7 added).
    const db = new Database(path);
    backToSchema6(db);
    db.exec("ALTER TABLE memories DROP COLUMN metadata");
    db.prepare("UPDATE meta SET value = '5' WHERE key = 'schema_version'").run();
    db.close();

    const after = openTestMemory({ path });
    expect((await after.status()).schemaVersion).toBe(SCHEMA_VERSION);
    const old = await after.get("tea");
    expect(old?.content).toBe("green tea in the morning");
    expect(old && "metadata" in old).toBe(false);
    await after.store("coffee", "black coffee after lunch", { metadata: { strength: 3 } });
    expect((await after.recall("coffee", { where: { strength: { $gt: 2 } } })).map((e) => e.key)).toEqual([
      "coffee",
    ]);
    expect((await after.recall("tea morning")).map((e) => e.key)).toEqual(["tea"]);
  });
});
