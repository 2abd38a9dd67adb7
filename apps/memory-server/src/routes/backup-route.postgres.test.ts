// POST /v1/admin/backup on PostgreSQL (PGlite, and the server CLAW_MEMORY_PG_URL names): the NDJSON
// of every entry with its vector, then every version of every key, as a named download; POST
// /v1/import of it takes the entries and skips the history lines.
import type { MemoryVersion } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { forEachTestDatabase } from "../../../../packages/memory-postgres/src/test-support/test-database.js";
import { openTestMemory } from "../../../../packages/memory-postgres/src/test-support/test-memory.js";
import { ADMIN, bearer, testServer } from "../test-support/server-harness.js";

forEachTestDatabase((database) => {
  describe("POST /v1/admin/backup on PostgreSQL", () => {
    it("sends NDJSON of every entry and every version, which import and replaceHistory read back", async () => {
      const memory = await openTestMemory(database());
      await memory.import([
        { key: "a", content: "first", namespace: "tenant-a" },
        { key: "b", content: "second", metadata: { source: "chat" } },
      ]);
      await memory.store("b", "second, changed");
      await memory.store("gone", "forgotten soon");
      await memory.forget("gone");
      const { app } = await testServer({ memory });
      const response = await app.inject({ method: "POST", url: "/v1/admin/backup", headers: bearer(ADMIN) });
      expect(response.statusCode).toBe(200);
      expect(response.headers["content-type"]).toBe("application/x-ndjson; charset=utf-8");
      expect(response.headers["content-disposition"]).toMatch(
        /^attachment; filename="claw-memory-.*\.ndjson"$/,
      );
      expect(response.headers["x-claw-backup-entries"]).toBe("2");
      const lines = response.body
        .split("\n")
        .filter((l) => l !== "")
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      const entries = lines.filter((l) => !("history" in l)) as Array<{ key: string; namespace: string }>;
      const versions = lines.flatMap((l) => ("history" in l ? [l.history as MemoryVersion] : []));
      expect(lines.slice(0, 2)).toEqual(entries);
      expect(entries.map((l) => `${l.namespace}/${l.key}`).sort()).toEqual(["default/b", "tenant-a/a"]);
      expect(versions.map((v) => `${v.namespace}/${v.key}@${v.version}:${v.action}`)).toEqual([
        "default/b@1:create",
        "default/b@2:update",
        "default/gone@1:create",
        "default/gone@2:forget",
        "tenant-a/a@1:create",
      ]);

      const copy = await openTestMemory(database());
      expect(await copy.import(entries)).toBe(2);
      expect(await copy.replaceHistory(versions)).toBe(5);
      expect(await copy.get("b")).toEqual(await memory.get("b"));
      for (const key of ["b", "gone"]) expect(await copy.history(key)).toEqual(await memory.history(key));

      // POST /v1/import of the same file: the entries, the history lines skipped and counted.
      const other = await openTestMemory(database());
      const { app: otherApp } = await testServer({ memory: other });
      const imported = await otherApp.inject({
        method: "POST",
        url: "/v1/import",
        headers: { ...bearer(ADMIN), "content-type": "application/x-ndjson" },
        payload: response.body,
      });
      expect(imported.statusCode).toBe(200);
      expect(imported.json()).toMatchObject({ imported: 2, rejected: 0, errors: [], historySkipped: 5 });
      expect((await other.get("b"))?.content).toBe("second, changed");
    });
  });
});
