import { join } from "node:path";
import type { Logger } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { createHashingEmbeddingProvider } from "../embedding/hashing-embedding-provider.js";
import {
  entryState,
  expectNotDamaged,
  expectStorageFull,
  fillerText,
  fillUntilFull,
} from "./test-support/full-store.js";
import { capturingLogger, openTestMemory, tempDir } from "./test-support/temp-memory.js";

/** Far more than a full store has left: ~100 KB, with a word no other entry holds. */
const LARGE_REWRITE = `zanzibarite ${"quixotic paragraph of replacement text ".repeat(2_700)}`;

/** A store capped at 1 MiB (`max_database_mb`), holding one large entry with two versions. */
async function fullStore(settings: Record<string, unknown> = {}, embeddings = false, logger?: Logger) {
  const path = join(tempDir(), "brain.db");
  const memory = openTestMemory({
    path,
    settings: { maxDatabaseMb: 1, ...settings },
    embeddings: embeddings ? createHashingEmbeddingProvider() : null,
    logger,
  });
  await memory.store("kept", `marmalade first ${"orange peel and sugar ".repeat(2_000)}`);
  await memory.store("kept", `marmalade second ${"orange peel and sugar ".repeat(2_000)}`);
  const { stored, refusal } = await fillUntilFull(memory);
  return { path, memory, stored, refusal };
}

describe("a full database (max_database_mb)", () => {
  it("refuses store() with STORAGE_FULL and changes nothing: count, content, history, full-text index", async () => {
    const { path, memory, stored, refusal } = await fullStore();
    expect(stored).toBeGreaterThan(100);
    expectStorageFull(refusal);
    const before = await entryState(memory, "kept");

    const rewrite = await memory.store("kept", LARGE_REWRITE).catch((error: unknown) => error);
    const added = await memory.store("new-key", LARGE_REWRITE).catch((error: unknown) => error);

    expectStorageFull(rewrite);
    expectStorageFull(added);
    expect(await entryState(memory, "kept")).toEqual(before);
    expect(before.history.map((v) => v.version)).toEqual([2, 1]);
    expect(await memory.get("new-key")).toBeNull();
    expect(await memory.recall("zanzibarite", { mode: "bm25" })).toEqual([]);
    expect(await memory.get(`filler-${stored}`)).toBeNull();
    await expectNotDamaged(memory, path);
  });

  it("refuses store() and import() with vectors computed first (defer_embedding = false) with STORAGE_FULL too", async () => {
    // The vector cache is written before the entry: a full store keeps no vector there (the
    // provider did not fail: no entry is left keyword-only), and the entry's write is refused.
    const logger = capturingLogger();
    const { path, memory, refusal } = await fullStore({ deferEmbedding: false }, true, logger);
    const before = await entryState(memory, "kept");

    const rewrite = await memory.store("kept", LARGE_REWRITE).catch((error: unknown) => error);
    const imported = await memory
      .import(
        Array.from({ length: 50 }, (_, i) => ({
          key: `imported-${i}`,
          content: `zanzibarite ${fillerText(i)}`,
        })),
      )
      .catch((error: unknown) => error);

    expectStorageFull(refusal);
    expectStorageFull(rewrite);
    expectStorageFull(imported);
    expect(logger.warnings).toEqual([]);
    expect(await entryState(memory, "kept")).toEqual(before);
    expect((await memory.status()).missingEmbeddings).toBe(0);
    await expectNotDamaged(memory, path);
  });

  it("refuses import() with STORAGE_FULL and writes none of its entries", async () => {
    const { path, memory } = await fullStore();
    const before = await entryState(memory, "kept");
    const entries = [
      { key: "kept", content: LARGE_REWRITE },
      ...Array.from({ length: 50 }, (_, i) => ({
        key: `imported-${i}`,
        content: `zanzibarite ${fillerText(i)}`,
      })),
    ];

    const refusal = await memory.import(entries).catch((error: unknown) => error);

    expectStorageFull(refusal);
    expect(await entryState(memory, "kept")).toEqual(before);
    expect(await memory.get("imported-0")).toBeNull();
    expect(await memory.get("imported-49")).toBeNull();
    expect(await memory.recall("zanzibarite", { mode: "bm25" })).toEqual([]);
    await expectNotDamaged(memory, path);
  });

  it("refuses a forget that keeps the history (it adds versions) with STORAGE_FULL, and keeps the entry", async () => {
    const { path, memory } = await fullStore();
    const before = await entryState(memory, "kept");

    const refusal = await memory.forget("kept").catch((error: unknown) => error);

    expectStorageFull(refusal);
    expect(await entryState(memory, "kept")).toEqual(before);
    expect((await memory.recall("marmalade", { mode: "bm25" })).map((e) => e.key)).toEqual(["kept"]);
    await expectNotDamaged(memory, path);
  });

  it("keeps answering get, list, count, history, export, status and keyword and hybrid recall", async () => {
    // Vectors that find no room wait for it (storage-full.embeddings.test.ts): no retries here.
    const { path, memory, stored } = await fullStore({ embeddingMaxRetries: 0 }, true);
    await memory.flush();

    expect((await memory.get("kept"))?.content).toMatch(/^marmalade second/);
    expect((await memory.get("filler-7"))?.content).toBe(fillerText(7));
    expect(await memory.count()).toBe(stored + 1);
    expect((await memory.list({ limit: 5 })).length).toBe(5);
    expect((await memory.history("kept")).length).toBe(2);
    expect((await memory.export()).length).toBe(stored + 1);
    expect((await memory.recall("filler7", { mode: "bm25" }))[0]?.key).toBe("filler-7");
    expect((await memory.recall("marmalade", { mode: "hybrid" }))[0]?.key).toBe("kept");
    const status = await memory.status();
    expect(status.entries).toBe(stored + 1);
    expect(status.corrupt).toBeUndefined();
    await expectNotDamaged(memory, path);
  });

  it("takes writes again, without reopening, once deletions that erase free room", async () => {
    const { path, memory, stored } = await fullStore();
    const half = Array.from({ length: Math.floor(stored / 2) }, (_, i) => ({ key: `filler-${i}` }));

    // Deletions that erase what they remove may use the room kept for them below the cap.
    expect(await memory.forgetMany(half, { eraseHistory: true })).toBe(half.length);
    const entry = await memory.store("after", "written once room was freed: quokka");
    await memory.import([{ key: "kept", content: "marmalade third, short" }]);

    expect(entry.key).toBe("after");
    expect((await memory.recall("quokka", { mode: "bm25" })).map((e) => e.key)).toEqual(["after"]);
    expect((await memory.get("kept"))?.content).toBe("marmalade third, short");
    expect((await memory.history("kept")).map((v) => v.version)).toEqual([3, 2, 1]);
    expect(await memory.count()).toBe(stored + 1 - half.length + 1);
    await expectNotDamaged(memory, path);
  });

  it("takes writes again after a purge of a session, and fills up again to the same cap", async () => {
    const path = join(tempDir(), "brain.db");
    const memory = openTestMemory({ path, settings: { maxDatabaseMb: 1 } });
    const first = await fillUntilFull(memory, { prefix: "old-", sessionId: "old-session" });

    expect(await memory.purgeSession("old-session")).toBe(first.stored);
    const second = await fillUntilFull(memory, { prefix: "new-" });

    expectStorageFull(second.refusal);
    // The pages freed by the purge are used again: about as many entries fit the second time.
    expect(second.stored).toBeGreaterThan(first.stored * 0.9);
    expect(await memory.count()).toBe(second.stored);
    await expectNotDamaged(memory, path);
  });
});
