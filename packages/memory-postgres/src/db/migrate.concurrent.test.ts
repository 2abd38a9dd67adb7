import { isMemoryError } from "@claw/memory-api";
import { createHashingEmbeddingProvider } from "@claw/memory-core";
import { describe, expect, it } from "vitest";
import { PostgresMemory } from "../postgres-memory.js";
import { FTS_CONTENT_VERSION } from "../store/fts-vector.js";
import { forEachTestDatabase } from "../test-support/test-database.js";
import { openTestMemory } from "../test-support/test-memory.js";
import { SCHEMA_VERSION } from "./migrations.js";

forEachTestDatabase((database) => {
  describe("schema migrations", () => {
    it("servers starting together on a new schema all open it, and it is migrated once", async () => {
      const schema = database().newSchema();
      const embeddings = createHashingEmbeddingProvider({ dimensions: 8 });
      const memories = await Promise.all(
        Array.from({ length: 4 }, () => openTestMemory(database(), { schema, embeddings })),
      );
      await Promise.all(memories.map((m, i) => m.store(`k${i}`, `written by server ${i}`)));

      expect(await memories[0]?.count()).toBe(4);
      const meta = await database().query(`SELECT key, value FROM "${schema}".claw_meta ORDER BY key`);
      expect(meta.rows).toEqual([
        { key: "embedding_dimensions", value: "8" },
        { key: "embedding_fingerprint", value: "hashing\u0001hashing-v1\u00018" },
        { key: "embedding_model", value: "hashing-v1" },
        { key: "embedding_provider", value: "hashing" },
        // Recorded once with the provider, before any entry: everything written later is swept.
        { key: "embedding_sweep_after", value: "0" },
        { key: "fts_content_version", value: FTS_CONTENT_VERSION },
        { key: "schema_version", value: String(SCHEMA_VERSION) },
        { key: "text_search_config", value: "english" },
      ]);
      expect((await memories[3]?.status())?.schemaVersion).toBe(SCHEMA_VERSION);
    });

    it("opening an existing schema again changes nothing", async () => {
      const first = await openTestMemory(database());
      await first.store("k", "kept across opens");
      const schema = (await first.status()).path?.split("#")[1] as string;
      await first.close();
      const again = await openTestMemory(database(), { schema });
      expect((await again.get("k"))?.content).toBe("kept across opens");
      expect((await again.recall("kept")).map((e) => e.key)).toEqual(["k"]);
    });

    it("refuses a schema written by a newer claw-memory", async () => {
      const first = await openTestMemory(database());
      const schema = (await first.status()).path?.split("#")[1] as string;
      await database().query(`UPDATE "${schema}".claw_meta SET value = '999' WHERE key = 'schema_version'`);
      const error = await PostgresMemory.open({
        url: database().url,
        poolMax: database().poolMax,
        schema,
      }).catch((e: unknown) => e);
      expect(isMemoryError(error, "UNAVAILABLE") && error.message).toContain(
        `is at version 999, newer than this claw-memory knows (${SCHEMA_VERSION})`,
      );
    });

    it("refuses an unknown text search configuration, naming it", async () => {
      const error = await openTestMemory(database(), { textSearchConfig: "klingon" }).catch(
        (e: unknown) => e,
      );
      expect(isMemoryError(error, "INVALID_INPUT") && error.field).toBe("textSearchConfig");
    });

    it("refuses a bad schema name and an unreachable server with clear errors", async () => {
      const badName = await PostgresMemory.open({ url: database().url, schema: "Robert'); DROP" }).catch(
        (e: unknown) => e,
      );
      expect(isMemoryError(badName, "INVALID_INPUT") && badName.field).toBe("schema");
      const unreachable = await PostgresMemory.open({
        url: "postgres://claw:hunter2@127.0.0.1:1/claw",
      }).catch((e: unknown) => e);
      expect(isMemoryError(unreachable, "UNAVAILABLE")).toBe(true);
      // The server, its password masked, and what to check: nothing to say about a workspace.
      expect((unreachable as Error).message).toBe(
        "cannot connect to PostgreSQL at postgres://claw:***@127.0.0.1:1/claw " +
          "(connect ECONNREFUSED 127.0.0.1:1): is the server running and reachable?",
      );
    });
  });
});
