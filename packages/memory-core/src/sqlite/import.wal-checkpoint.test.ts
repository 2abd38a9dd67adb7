import { existsSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { createHashingEmbeddingProvider } from "../embedding/hashing-embedding-provider.js";
import { BULK_CHECKPOINT_ENTRIES } from "./schema/wal-checkpointer.js";
import { countingProvider, openTestMemory, tempDir } from "./test-support/temp-memory.js";

const entries = (count: number, from = 0) =>
  Array.from({ length: count }, (_, i) => ({
    key: `note-${from + i}`,
    content: `Meeting note ${from + i}: the team chose PostgreSQL for project ${(from + i) % 7}`,
    ...(i % 3 === 0 ? { sessionId: `s-${i % 5}` } : {}),
  }));

describe("bulk imports, checkpointed off the writing thread", () => {
  it("back-to-back imports and a store are all on disk after close, with no log left behind", async () => {
    const path = join(tempDir(), "brain.db");
    const memory = openTestMemory({ path });

    expect(await memory.import(entries(BULK_CHECKPOINT_ENTRIES * 2))).toBe(BULK_CHECKPOINT_ENTRIES * 2);
    expect(await memory.import(entries(BULK_CHECKPOINT_ENTRIES, 10_000))).toBe(BULK_CHECKPOINT_ENTRIES);
    const stored = await memory.store("after", "stored right after the imports");
    const [recalled] = await memory.recall("PostgreSQL project 3", { limit: 1 });
    await memory.close();

    expect(stored.key).toBe("after");
    expect(recalled?.content).toMatch(/project 3$/);
    expect(existsSync(`${path}-wal`)).toBe(false);
    const db = new Database(path, { readonly: true });
    expect(db.prepare("SELECT count(*) FROM memories").pluck().get()).toBe(BULK_CHECKPOINT_ENTRIES * 3 + 1);
    expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
    db.close();
  });

  it("an import returns only its count, and the entries that need a vector still get one", async () => {
    const counting = countingProvider(createHashingEmbeddingProvider({ dimensions: 32 }));
    const memory = openTestMemory({ embeddings: counting.provider, settings: { deferEmbedding: false } });
    await memory.store("note-0", "Meeting note 0: the team chose PostgreSQL for project 0");
    const before = counting.calls.texts;

    // The first entry exists and is skipped: it is neither counted nor embedded again.
    const written = await memory.import(entries(BULK_CHECKPOINT_ENTRIES), { onConflict: "skip" });
    const status = await memory.status();

    expect(written).toBe(BULK_CHECKPOINT_ENTRIES - 1);
    expect(counting.calls.texts - before).toBe(BULK_CHECKPOINT_ENTRIES - 1);
    expect(status.entries).toBe(BULK_CHECKPOINT_ENTRIES);
    expect(status.missingEmbeddings).toBe(0);
  });
});
