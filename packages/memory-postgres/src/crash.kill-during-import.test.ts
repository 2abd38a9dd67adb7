// A client killed with SIGKILL in the middle of a bulk import: the server rolls its open
// transaction back, so the store holds every acknowledged chunk and nothing of the next one.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import type { EmbeddingProvider } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { forEachTestDatabase, needsPgvector, type TestDatabase } from "./test-support/test-database.js";
import { openTestMemory } from "./test-support/test-memory.js";

const here = dirname(fileURLToPath(import.meta.url));
const CHILD = join(here, "test-support", "import-until-killed.mjs");
const CHUNK = 500;
const DIMENSIONS = 32;

/** Answers a query "e<i>" with the vector stored for entry e<i>: the child's fingerprint. */
function storedVectors(database: TestDatabase, schema: string): EmbeddingProvider {
  return {
    id: "hashing",
    model: "hashing-v1",
    dimensions: DIMENSIONS,
    embed: async (texts) => {
      const { rows } = await database.query(
        `SELECT key, embedding FROM "${schema}".claw_memories WHERE key = ANY($1::text[])`,
        [texts],
      );
      const byKey = new Map(rows.map((r) => [r.key as string, Float32Array.from(r.embedding as number[])]));
      return texts.map((text) => byKey.get(text) ?? new Float32Array(DIMENSIONS));
    },
  };
}

forEachTestDatabase((database) => {
  describe("a client killed with SIGKILL during a bulk import", () => {
    it("leaves whole chunks: each acknowledged one, none of the next, found by keyword and by vector", async (ctx) => {
      needsPgvector(ctx, database());
      // The child runs the built package, as a user's process would.
      expect(existsSync(join(here, "..", "dist", "index.js"))).toBe(true);
      const db = database();
      const schema = db.newSchema();
      const args = [CHILD, db.url, String(db.poolMax), schema, String(CHUNK), String(DIMENSIONS)];
      const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
      const exited = once(child, "exit");
      let committed = 0;
      for await (const line of createInterface({ input: child.stdout })) {
        committed = Number(line.split(" ")[1]);
        // Killed right after a commit: the next chunk's transaction is under way.
        if (committed >= 3 * CHUNK) break;
      }
      child.kill("SIGKILL");
      const [, signal] = await exited;
      expect(signal).toBe("SIGKILL");

      const memory = await openTestMemory(db, { schema, embeddings: storedVectors(db, schema) });
      const entries = await memory.count();
      expect(entries).toBeGreaterThanOrEqual(committed);
      expect(entries % CHUNK).toBe(0);
      const last = entries - 1;
      const status = await memory.status();
      expect([status.missingEmbeddings, status.pendingEmbeddings]).toEqual([0, 0]);
      const found = await memory.recall(`word${last}`, { mode: "bm25", limit: 3 });
      expect(found.map((e) => e.key)).toEqual([`e${last}`]);
      expect(await memory.recall(`word${entries}`, { mode: "bm25", limit: 3 })).toEqual([]);
      for (const key of ["e0", `e${last}`]) {
        const hits = await memory.recall(key, { mode: "embedding", limit: 1 });
        expect(hits.map((e) => e.key)).toEqual([key]);
      }
    });
  });
});
