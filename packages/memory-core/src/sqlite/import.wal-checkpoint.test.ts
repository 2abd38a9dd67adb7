import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { createHashingEmbeddingProvider } from "../embedding/hashing-embedding-provider.js";
import { WAL_AUTOCHECKPOINT_PAGES } from "./schema/wal-checkpointer.js";
import { countingProvider, openTestMemory, tempDir } from "./test-support/temp-memory.js";
import { walPagesOf } from "./writes/write-transactions.js";

const entries = (count: number, from = 0) =>
  Array.from({ length: count }, (_, i) => ({
    key: `note-${from + i}`,
    content: `Meeting note ${from + i}: the team chose PostgreSQL for project ${(from + i) % 7}`,
    ...(i % 3 === 0 ? { sessionId: `s-${i % 5}` } : {}),
  }));

/** Entries enough for a write that the checkpoint worker takes (checked below). */
const BULK = 4_000;

describe("bulk imports, checkpointed off the writing thread", () => {
  it("the log pages of an import are estimated within a factor of two, and BULK entries reach the automatic checkpoint", async () => {
    const path = join(tempDir(), "brain.db");
    const memory = openTestMemory({ path });
    await memory.store("first", "the log holds the schema and this entry");
    const before = statSync(`${path}-wal`).size;
    const batch = entries(1_000);
    await memory.import(batch);
    const pages = (statSync(`${path}-wal`).size - before) / 4096;

    const contentLength = (list: { content: string }[]) => list.reduce((n, e) => n + e.content.length, 0);
    const estimate = walPagesOf(batch.length, contentLength(batch));
    expect(estimate).toBeGreaterThan(pages / 2);
    expect(estimate).toBeLessThan(pages * 2);
    const bulk = entries(BULK);
    expect(walPagesOf(bulk.length, contentLength(bulk))).toBeGreaterThanOrEqual(WAL_AUTOCHECKPOINT_PAGES);
  });

  it("back-to-back imports and a store are all on disk after close, with no log left behind", async () => {
    const path = join(tempDir(), "brain.db");
    const memory = openTestMemory({ path });

    expect(await memory.import(entries(BULK * 2))).toBe(BULK * 2);
    expect(await memory.import(entries(BULK, 10_000))).toBe(BULK);
    const stored = await memory.store("after", "stored right after the imports");
    const [recalled] = await memory.recall("PostgreSQL project 3", { limit: 1 });
    await memory.close();

    expect(stored.key).toBe("after");
    expect(recalled?.content).toMatch(/project 3$/);
    expect(existsSync(`${path}-wal`)).toBe(false);
    const db = new Database(path, { readonly: true });
    expect(db.prepare("SELECT count(*) FROM memories").pluck().get()).toBe(BULK * 3 + 1);
    expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
    db.close();
  });

  it("flush() returns once the bulk import's log is copied into the database file", async () => {
    const path = join(tempDir(), "brain.db");
    const memory = openTestMemory({ path });
    const before = statSync(path).size;

    await memory.import(entries(BULK * 2));
    await memory.flush();

    // Before the checkpoint the file holds only the schema; the log holds the ~8 MB written.
    expect(before).toBeLessThan(256 * 1024);
    expect(statSync(path).size).toBeGreaterThan(2 * 1024 * 1024);
  });

  it("an import returns only its count, and the entries that need a vector still get one", async () => {
    const counting = countingProvider(createHashingEmbeddingProvider({ dimensions: 32 }));
    const memory = openTestMemory({ embeddings: counting.provider, settings: { deferEmbedding: false } });
    await memory.store("note-0", "Meeting note 0: the team chose PostgreSQL for project 0");
    const before = counting.calls.texts;

    // The first entry exists and is skipped: it is neither counted nor embedded again.
    const written = await memory.import(entries(BULK), { onConflict: "skip" });
    const status = await memory.status();

    expect(written).toBe(BULK - 1);
    expect(counting.calls.texts - before).toBe(BULK - 1);
    expect(status.entries).toBe(BULK);
    expect(status.missingEmbeddings).toBe(0);
  });
});
