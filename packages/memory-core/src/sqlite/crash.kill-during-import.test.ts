import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import type { EmbeddingProvider } from "@claw/memory-api";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { blobToFloat32 } from "../recall/vector-math.js";
import { openTestMemory, tempDir } from "./test-support/temp-memory.js";

const here = dirname(fileURLToPath(import.meta.url));
const CHILD = join(here, "test-support", "import-until-killed.mjs");
const CHUNK = 2000;
const DIMENSIONS = 64;

/** Answers a query "e<i>" with the vector stored for entry e<i>: the child's fingerprint. */
function storedVectors(path: string): EmbeddingProvider {
  const db = new Database(path, { readonly: true });
  const read = db.prepare("SELECT embedding FROM memories WHERE key = ?").pluck();
  return {
    id: "hashing",
    model: "hashing-v1",
    dimensions: DIMENSIONS,
    maxBatchSize: 16,
    embed: async (texts) => texts.map((text) => blobToFloat32(read.get(text) as Buffer)),
  };
}

describe("a process killed with SIGKILL during a bulk import", () => {
  it("leaves a store that opens with whole chunks, its full-text index and vector codes in agreement", async () => {
    // The child runs the built package, as a user's process would.
    expect(existsSync(join(here, "..", "..", "dist", "index.js"))).toBe(true);
    const path = join(tempDir(), "brain.db");
    const child = spawn(process.execPath, [CHILD, path, String(CHUNK), String(DIMENSIONS)], {
      stdio: ["ignore", "pipe", "inherit"],
    });
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

    const memory = openTestMemory({ path, embeddings: storedVectors(path) });
    const db = new Database(path, { readonly: true });
    try {
      expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
      const entries = db.prepare("SELECT count(*) FROM memories").pluck().get() as number;
      // Every acknowledged chunk is there, and no part of an unfinished one.
      expect(entries).toBeGreaterThanOrEqual(committed);
      expect(entries % CHUNK).toBe(0);
      const last = entries - 1;
      // Codes: one per stored vector.
      expect(db.prepare("SELECT count(*) FROM memory_codes").pluck().get()).toBe(entries);
      // The full-text index holds the last entry written, and nothing of the lost chunk.
      const found = await memory.recall(`word${last}`, { mode: "bm25", limit: 3 });
      expect(found.map((e) => e.key)).toEqual([`e${last}`]);
      expect(await memory.recall(`word${entries}`, { mode: "bm25", limit: 3 })).toEqual([]);
      // Vector search finds entries of the first and the last chunk by their own vectors.
      for (const key of ["e0", `e${last}`]) {
        const hits = await memory.recall(key, { mode: "embedding", limit: 1 });
        expect(hits.map((e) => e.key)).toEqual([key]);
      }
    } finally {
      db.close();
    }
  });
});
