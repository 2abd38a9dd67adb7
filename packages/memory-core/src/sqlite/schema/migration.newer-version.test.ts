// A database that a later release has migrated is left alone by this one.
import { join } from "node:path";
import { isMemoryError } from "@claw/memory-api";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { SqliteMemory } from "../sqlite-memory.js";
import { openTestMemory, tempDir } from "../test-support/temp-memory.js";
import { SCHEMA_VERSION } from "./schema.js";

describe("a database of a newer schema version", () => {
  it("is refused as UNAVAILABLE, naming both versions, and stays as it was", async () => {
    const path = join(tempDir(), "brain.db");
    const memory = openTestMemory({ path });
    await memory.store("tea", "green tea in the morning");
    await memory.close();
    const newer = SCHEMA_VERSION + 1;
    const db = new Database(path);
    db.prepare("UPDATE meta SET value = ? WHERE key = 'schema_version'").run(String(newer));
    const before = db.prepare("SELECT count(*) FROM sqlite_master").pluck().get();
    db.close();

    let refused: unknown;
    try {
      SqliteMemory.open({ path, embeddings: null });
    } catch (error) {
      refused = error;
    }
    expect(isMemoryError(refused, "UNAVAILABLE")).toBe(true);
    expect((refused as Error).message).toContain(
      `schema version ${newer}, newer than this claw-memory knows (${SCHEMA_VERSION})`,
    );

    const after = new Database(path, { readonly: true });
    expect(after.prepare("SELECT value FROM meta WHERE key = 'schema_version'").pluck().get()).toBe(
      String(newer),
    );
    expect(after.prepare("SELECT count(*) FROM sqlite_master").pluck().get()).toBe(before);
    expect(after.prepare("SELECT content FROM memories WHERE key = 'tea'").pluck().get()).toBe(
      "green tea in the morning",
    );
    after.close();
  });
});
