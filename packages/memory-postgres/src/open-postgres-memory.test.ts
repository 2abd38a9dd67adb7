import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Memory } from "@claw/memory-api";
import { applyEnvironment, createMemory, type PostgresOpenOptions, parseConfig } from "@claw/memory-core";
import pg from "pg";
import { describe, expect, it, onTestFinished } from "vitest";
import * as postgresPackage from "./index.js";
import { openPostgresMemory, PostgresMemory } from "./index.js";
import { forEachTestDatabase } from "./test-support/test-database.js";

// What core's createMemory passes is what this package takes (checked by the compiler).
const _entryPoint: (options: PostgresOpenOptions) => Promise<Memory> = openPostgresMemory;

function workspace(): string {
  const dir = mkdtempSync(join(tmpdir(), "claw-pg-workspace-"));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

forEachTestDatabase((database) => {
  describe('createMemory with backend = "postgres"', () => {
    it("opens a PostgresMemory from [postgres] (url from CLAW_MEMORY_PG_URL) and runs the plugins", async () => {
      const schema = database().newSchema();
      const config = applyEnvironment(
        parseConfig({
          memory: { backend: "postgres", embeddingProvider: "none" },
          postgres: { url: "postgres://nobody@127.0.0.1:1/unused", schema, poolMax: database().poolMax },
        }),
        { CLAW_MEMORY_PG_URL: database().url },
      );
      const seen: string[] = [];
      const memory = await createMemory({
        workspaceDir: workspace(),
        config,
        strict: true,
        importModule: async () => postgresPackage,
        plugins: [
          {
            name: "probe",
            afterOpen: async (m) => void seen.push(`open:${m.name}`),
            beforeClose: async (m) => void seen.push(`close:${await m.count()}`),
          },
        ],
      });
      onTestFinished(() => memory.close());

      expect(memory.name).toBe("postgres");
      await memory.store("k", "stored through createMemory");
      expect((await memory.recall("createMemory")).map((e) => e.key)).toEqual(["k"]);
      const status = await memory.status();
      expect(status.backend).toBe("postgres");
      expect(status.path?.endsWith(`#${schema}`)).toBe(true);
      expect(status.embedding).toBeNull();
      await memory.close();
      expect(seen).toEqual(["open:postgres", "close:1"]);
    });
  });
});

forEachTestDatabase((database) => {
  describe("a pool the caller owns", () => {
    it("is used with this package's type parsing and left open by close()", async () => {
      const pool = new pg.Pool({ connectionString: database().url, max: database().poolMax });
      onTestFinished(() => pool.end());
      const memory = await PostgresMemory.open({ pool, schema: database().newSchema() });
      const entry = await memory.store("k", "in a shared pool", { importance: 0.5 });
      expect(await memory.get("k")).toEqual(entry);
      expect(entry.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      await memory.close();
      expect((await pool.query("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
    });
  });
});

describe("openPostgresMemory", () => {
  it("needs exactly one of url and pool", async () => {
    const error = await openPostgresMemory({} as PostgresOpenOptions).catch((e: unknown) => e);
    expect((error as { field?: string }).field).toBe("url");
  });
});
