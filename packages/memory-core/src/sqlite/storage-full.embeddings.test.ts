import { join } from "node:path";
import type { Logger } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG } from "../config/config-schema.js";
import { createHashingEmbeddingProvider } from "../embedding/hashing-embedding-provider.js";
import { SqliteMemory } from "./sqlite-memory.js";
import { expectNotDamaged, fillerText, fillUntilFull } from "./test-support/full-store.js";
import { capturingLogger, countingProvider, openTestMemory, tempDir } from "./test-support/temp-memory.js";

const FULL_WARNING = "the store is full: entries wait for their vectors";

/**
 * A 1 MiB store filled with entries (deferred embedding, the default) while the provider is held,
 * so that their vectors come back to a full store.
 */
async function filledWhileEmbeddingHeld(logger: Logger, settings: Record<string, unknown> = {}) {
  const path = join(tempDir(), "brain.db");
  const counting = countingProvider(createHashingEmbeddingProvider());
  const memory = openTestMemory({
    path,
    settings: { maxDatabaseMb: 1, ...settings },
    embeddings: counting.provider,
    logger,
  });
  counting.hold();
  const { stored } = await fillUntilFull(memory);
  return { path, memory, stored, counting };
}

/** Erases the oldest three quarters of the fillers: room for the vectors of the rest. */
function eraseOldest(memory: SqliteMemory, stored: number): Promise<number> {
  const oldest = Array.from({ length: Math.floor((stored * 3) / 4) }, (_, i) => ({ key: `filler-${i}` }));
  return memory.forgetMany(oldest, { eraseHistory: true });
}

describe("deferred embeddings on a full database", () => {
  it("keep the jobs whose vectors find no room: flush() ends, and writes them once room is freed", async () => {
    const logger = capturingLogger();
    const { path, memory, stored, counting } = await filledWhileEmbeddingHeld(logger, {
      embeddingMaxRetries: 0,
    });
    counting.release();

    await memory.flush();
    const full = await memory.status();
    // flush() tried them again and gave up: still no room.
    const callsBefore = counting.calls.document;
    await memory.flush();
    const stillFull = await memory.status();

    expect(full.pendingEmbeddings).toBe(0);
    expect(full.missingEmbeddings).toBeGreaterThan(stored / 2);
    expect(full.embeddingUnavailableReason).toBe(
      "no room for vectors (storage failure: database or disk is full)",
    );
    expect(stillFull.missingEmbeddings).toBe(full.missingEmbeddings);
    expect(counting.calls.document).toBeGreaterThan(callsBefore);
    expect(logger.warnings.filter((w) => w.startsWith(FULL_WARNING))).toHaveLength(1);
    expect((await memory.recall("filler3", { mode: "bm25" }))[0]?.key).toBe("filler-3");

    const erased = await eraseOldest(memory, stored);
    await memory.flush();

    const status = await memory.status();
    expect(status.entries).toBe(stored - erased);
    expect(status.missingEmbeddings).toBe(0);
    expect(status.pendingEmbeddings).toBe(0);
    expect(status.embeddingUnavailableReason).toBeUndefined();
    const last = `filler-${stored - 1}`;
    expect((await memory.recall(fillerText(stored - 1), { mode: "embedding", limit: 1 }))[0]?.key).toBe(last);
    await expectNotDamaged(memory, path);
  });

  it("retry the vector write with backoff: room freed before the retry takes them without waiting", async () => {
    let memory: SqliteMemory | null = null;
    let stored = 0;
    let freed: Promise<number> | null = null;
    const logger = {
      ...capturingLogger(),
      debug(message: string) {
        // Room is freed at the first retry, while its backoff runs (the deletion commits at once).
        if (message === "no room for vectors; retrying" && freed === null && memory !== null) {
          freed = eraseOldest(memory, stored);
        }
      },
    };
    const filled = await filledWhileEmbeddingHeld(logger, { embeddingMaxRetries: 3 });
    memory = filled.memory;
    stored = filled.stored;
    filled.counting.release();

    await memory.flush();

    expect(freed).not.toBeNull();
    const erased = await (freed as unknown as Promise<number>);
    const status = await memory.status();
    expect(status.entries).toBe(stored - erased);
    expect(status.missingEmbeddings).toBe(0);
    expect(logger.warnings.some((w) => w.startsWith(FULL_WARNING))).toBe(false);
  });

  it("wait for room in one batch at a time: once one has waited in vain, the others try once", async () => {
    let retries = 0;
    const logger = {
      ...capturingLogger(),
      debug(message: string) {
        if (message === "no room for vectors; retrying") retries++;
      },
    };
    const { memory, counting } = await filledWhileEmbeddingHeld(logger, {
      embeddingMaxRetries: 2,
      embeddingConcurrency: 2,
    });
    counting.release();

    await memory.flush();

    // Many batches found no room; only the two running together before the first gave up waited.
    expect(counting.calls.document).toBeGreaterThan(6);
    expect(retries).toBeGreaterThan(0);
    expect(retries).toBeLessThanOrEqual(2 * 2);
    expect((await memory.status()).missingEmbeddings).toBeGreaterThan(0);
  });

  it("close() ends with vectors waiting for room; backfill writes them after room is freed", async () => {
    const logger = capturingLogger();
    const { path, memory, stored, counting } = await filledWhileEmbeddingHeld(logger, {
      embeddingMaxRetries: 0,
    });
    counting.release();
    await memory.flush();
    const missing = (await memory.status()).missingEmbeddings;
    await eraseOldest(memory, stored);

    await memory.close();
    const reopened = SqliteMemory.open({
      path,
      settings: { ...DEFAULT_CONFIG.memory, maxDatabaseMb: 1 },
      embeddings: createHashingEmbeddingProvider(),
    });
    const left = (await reopened.status()).missingEmbeddings;
    const written = await reopened.backfillEmbeddings();
    const status = await reopened.status();
    await reopened.close();

    expect(missing).toBeGreaterThan(0);
    expect(
      logger.warnings.some((w) => w.startsWith("closing with entries whose vectors found no room")),
    ).toBe(true);
    expect(left).toBeGreaterThan(0);
    expect(written).toBe(left);
    expect(status.missingEmbeddings).toBe(0);
  });
});
