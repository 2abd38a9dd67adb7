import { join } from "node:path";
import { isMemoryError, MemoryError, silentLogger } from "@claw/memory-api";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import type { MemorySettings } from "../../config/config-schema.js";
import { loadConfigFromToml } from "../../config/load-config.js";
import { captureLogger } from "../../config/test-support/config-test-helpers.js";
import { createMemory } from "../../create-memory.js";
import { createHashingEmbeddingProvider } from "../../embedding/hashing-embedding-provider.js";
import { SqliteMemory } from "../sqlite-memory.js";
import { batchJobsProvider } from "../test-support/batch-jobs-provider.js";
import { openTestMemory, tempDir } from "../test-support/temp-memory.js";
import {
  BATCH_API_FAILURES_KEY,
  BATCH_API_LAST_ERROR_KEY,
  BATCH_API_PENDING_JOB_KEY,
} from "./batch-backfill.js";

const BATCH_ON: Partial<MemorySettings> = {
  embeddingBatchApi: true,
  embeddingBatchApiMinEntries: 10,
  embeddingBatchApiPollMs: 5,
};

function contentOf(i: number): string {
  return `note ${i}: the team discussed topic${i} during the weekly review`;
}

/** A database at a fresh path holding `count` keyword-only entries (no vectors yet). */
async function seededPath(count: number, content: (i: number) => string = contentOf): Promise<string> {
  const path = join(tempDir(), "brain.db");
  const seed = SqliteMemory.open({ path, embeddings: null });
  await seed.import(Array.from({ length: count }, (_, i) => ({ key: `k${i}`, content: content(i) })));
  await seed.close();
  return path;
}

function readMeta(path: string, key: string): string | undefined {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare("SELECT value FROM meta WHERE key = ?").get(key) as { value: string } | undefined)
      ?.value;
  } finally {
    db.close();
  }
}

async function embeddingOf(memory: SqliteMemory, key: string): Promise<number[]> {
  const entries = await memory.export({ includeEmbeddings: true });
  return Array.from(entries.find((e) => e.key === key)?.embedding ?? []);
}

describe("backfill through vendor batch jobs", () => {
  it("embeds every missing entry in jobs of maxTextsPerJob, with no normal request", async () => {
    const path = await seededPath(20);
    const double = batchJobsProvider({ maxTextsPerJob: 8 });
    const memory = openTestMemory({ path, embeddings: double.provider, settings: BATCH_ON });
    const progress: [number, number][] = [];

    const written = await memory.backfillEmbeddings(64, { onProgress: (d, t) => progress.push([d, t]) });

    expect(written).toBe(20);
    expect(double.jobs.map((j) => j.texts.length)).toEqual([8, 8, 4]);
    expect(double.jobs[0]?.texts[0]).toBe(contentOf(0));
    expect(double.jobs[2]?.texts[3]).toBe(contentOf(19));
    expect(double.jobs[0]?.options).toMatchObject({ purpose: "document", pollIntervalMs: 5 });
    expect(double.jobs[0]?.options.signal).toBeInstanceOf(AbortSignal);
    expect(double.documentRequests).toEqual({ calls: 0, texts: 0 });
    expect(progress).toEqual([
      [8, 20],
      [16, 20],
      [20, 20],
    ]);
    expect((await memory.status()).missingEmbeddings).toBe(0);
    const [expected] = await createHashingEmbeddingProvider({ dimensions: 32 }).embed([contentOf(7)]);
    expect(await embeddingOf(memory, "k7")).toEqual(Array.from(expected as Float32Array));
    const hits = await memory.recall("topic13", { mode: "embedding", limit: 1 });
    expect(hits.map((h) => h.key)).toEqual(["k13"]);
  });

  it("keeps each job within maxCharsPerJob", async () => {
    const path = await seededPath(12, (i) => `${"x".repeat(90)} entry ${i}`.padEnd(100, "."));
    const double = batchJobsProvider({ maxTextsPerJob: 100, maxCharsPerJob: 450 });
    const memory = openTestMemory({ path, embeddings: double.provider, settings: BATCH_ON });

    expect(await memory.backfillEmbeddings()).toBe(12);

    expect(double.jobs.map((j) => j.texts.length)).toEqual([4, 4, 4]);
  });

  it("uses normal requests below embedding_batch_api_min_entries", async () => {
    const path = await seededPath(9);
    const double = batchJobsProvider();
    const memory = openTestMemory({ path, embeddings: double.provider, settings: BATCH_ON });

    expect(await memory.backfillEmbeddings()).toBe(9);

    expect(double.jobs).toHaveLength(0);
    expect(double.documentRequests).toEqual({ calls: 1, texts: 9 });
  });

  it("uses normal requests when embedding_batch_api is off (the default)", async () => {
    const path = await seededPath(20);
    const double = batchJobsProvider();
    const memory = openTestMemory({ path, embeddings: double.provider });

    expect(await memory.backfillEmbeddings()).toBe(20);

    expect(double.jobs).toHaveLength(0);
    expect(double.documentRequests).toEqual({ calls: 2, texts: 20 });
  });

  it("sends only texts the embedding cache lacks, once each, and caches what comes back", async () => {
    // Entries 0..4 were embedded (and cached) before; 5..19 never were; 20 repeats entry 19's text.
    const path = await seededPath(21, (i) => contentOf(Math.min(i, 19)));
    const double = batchJobsProvider();
    const first = SqliteMemory.open({ path, embeddings: double.provider });
    for (let i = 0; i < 5; i++) await first.store(`k${i}`, contentOf(i));
    await first.flush();
    await first.close();
    double.documentRequests.calls = 0;
    double.documentRequests.texts = 0;
    const memory = openTestMemory({ path, embeddings: double.provider, settings: BATCH_ON });

    expect(await memory.backfillEmbeddings()).toBe(16);
    expect(double.jobs).toHaveLength(1);
    expect(double.jobs[0]?.texts).toEqual(Array.from({ length: 15 }, (_, i) => contentOf(i + 5)));

    // A reindex clears every vector; the cache now holds all of them, so no job runs at all.
    expect(await memory.reindex()).toBe(21);
    expect(double.jobs).toHaveLength(1);
    expect(double.documentRequests).toEqual({ calls: 0, texts: 0 });
    expect((await memory.status()).missingEmbeddings).toBe(0);
    expect(await embeddingOf(memory, "k20")).toEqual(await embeddingOf(memory, "k19"));
  });

  it("drops a vector whose entry changed while its job ran", async () => {
    const path = await seededPath(20);
    const double = batchJobsProvider();
    const memory = openTestMemory({
      path,
      embeddings: double.provider,
      settings: { ...BATCH_ON, deferEmbedding: false },
    });
    const held = double.holdNextJob();
    const backfill = memory.backfillEmbeddings();
    expect(await held.started).toHaveLength(20);

    await memory.store("k3", "the entry was rewritten about gardening while the job ran");
    held.release();

    expect(await backfill).toBe(19);
    const [fresh] = await createHashingEmbeddingProvider({ dimensions: 32 }).embed([
      "the entry was rewritten about gardening while the job ran",
    ]);
    expect(await embeddingOf(memory, "k3")).toEqual(Array.from(fresh as Float32Array));
    expect((await memory.status()).missingEmbeddings).toBe(0);
  });
});

describe("failed batch jobs", () => {
  it("counts a failed job, embeds the rest with normal requests, and a success resets the count", async () => {
    const path = await seededPath(20);
    const double = batchJobsProvider({ maxTextsPerJob: 8 });
    const logger = captureLogger();
    const memory = openTestMemory({ path, embeddings: double.provider, settings: BATCH_ON, logger });
    double.failNextJobs(new MemoryError("PROVIDER", "batch failed: invalid_request"));
    const progress: [number, number][] = [];

    expect(await memory.backfillEmbeddings(64, { onProgress: (d, t) => progress.push([d, t]) })).toBe(20);

    expect(double.jobs).toHaveLength(1);
    expect(double.documentRequests).toEqual({ calls: 2, texts: 20 });
    expect(progress).toEqual([[20, 20]]);
    expect(readMeta(path, BATCH_API_FAILURES_KEY)).toBe("1");
    expect(readMeta(path, BATCH_API_LAST_ERROR_KEY)).toBe("PROVIDER: batch failed: invalid_request");
    expect(logger.messages("warn")).toEqual([]);
    expect((await memory.status()).warnings).toBeUndefined();

    expect(await memory.reindex()).toBe(20);
    // Everything is cached now: the reindex needs no job, so the count stands until a job succeeds.
    expect(double.jobs).toHaveLength(1);
    expect(readMeta(path, BATCH_API_FAILURES_KEY)).toBe("1");

    await memory.close();
    const keywordOnly = SqliteMemory.open({ path, embeddings: null });
    await keywordOnly.import(
      Array.from({ length: 10 }, (_, i) => ({ key: `new${i}`, content: `fresh ${i}` })),
    );
    await keywordOnly.close();
    const reopened = openTestMemory({ path, embeddings: double.provider, settings: BATCH_ON });
    expect(await reopened.backfillEmbeddings()).toBe(10);
    expect(double.jobs.map((j) => j.texts.length)).toEqual([8, 8, 2]);
    expect(readMeta(path, BATCH_API_FAILURES_KEY)).toBeUndefined();
    expect(readMeta(path, BATCH_API_LAST_ERROR_KEY)).toBeUndefined();
  });

  it("after embedding_batch_api_max_failures failures in a row stops using the batch API, across restarts", async () => {
    const path = await seededPath(20);
    const double = batchJobsProvider();
    const logger = captureLogger();
    const settings = { ...BATCH_ON, embeddingCacheMax: 0 }; // every reindex re-embeds everything
    const memory = SqliteMemory.open({ path, embeddings: double.provider, settings: full(settings), logger });
    double.failNextJobs(new MemoryError("PROVIDER_AUTH", "401 from the batch endpoint"), 2);

    expect(await memory.backfillEmbeddings()).toBe(20);
    expect(await memory.reindex()).toBe(20);

    expect(double.jobs).toHaveLength(2);
    expect(double.documentRequests.texts).toBe(40);
    expect((await memory.status()).missingEmbeddings).toBe(0);
    expect(readMeta(path, BATCH_API_FAILURES_KEY)).toBe("2");
    const warnings = logger.messages("warn");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^embedding batch API disabled after 2 consecutive failed jobs/);
    expect(warnings[0]).toContain("PROVIDER_AUTH: 401 from the batch endpoint");
    expect((await memory.status()).warnings).toEqual([warnings[0]]);

    await memory.reindex();
    expect(double.jobs).toHaveLength(2);
    await memory.close();

    const reopened = openTestMemory({ path, embeddings: double.provider, settings });
    expect((await reopened.status()).warnings).toEqual([warnings[0]]);
    expect(await reopened.reindex()).toBe(20);
    expect(double.jobs).toHaveLength(2);
    expect((await reopened.status()).missingEmbeddings).toBe(0);
  });

  it("treats a job answering the wrong number of vectors as failed", async () => {
    const path = await seededPath(12);
    const double = batchJobsProvider();
    const memory = openTestMemory({ path, embeddings: double.provider, settings: BATCH_ON });
    double.answerNextJobWith((texts) => texts.slice(1).map(() => new Float32Array(32)));

    expect(await memory.backfillEmbeddings()).toBe(12);

    expect(readMeta(path, BATCH_API_LAST_ERROR_KEY)).toBe(
      "PROVIDER: embedding batch job of batch-double returned 11 vectors for 12 texts",
    );
    expect(double.documentRequests.texts).toBe(12);
  });

  it("gives up on a job after embedding_batch_api_timeout_ms, aborting it, and counts a TIMEOUT", async () => {
    const path = await seededPath(12);
    const double = batchJobsProvider();
    const memory = openTestMemory({
      path,
      embeddings: double.provider,
      settings: { ...BATCH_ON, embeddingBatchApiTimeoutMs: 30 },
    });
    double.holdNextJob(); // never released: only the timeout ends it

    expect(await memory.backfillEmbeddings()).toBe(12);

    expect(double.jobs[0]?.options.signal?.aborted).toBe(true);
    expect(readMeta(path, BATCH_API_LAST_ERROR_KEY)).toBe(
      "TIMEOUT: embedding batch job did not finish within 30 ms",
    );
    expect(double.documentRequests.texts).toBe(12);
  });

  it("close() stops waiting for a running job but leaves it running, and no failure is counted", async () => {
    const path = await seededPath(12);
    const double = batchJobsProvider();
    const memory = SqliteMemory.open({ path, embeddings: double.provider, settings: full(BATCH_ON) });
    const held = double.holdNextJob();
    const backfill = memory.backfillEmbeddings();
    await held.started;

    await memory.close();

    await expect(backfill).rejects.toSatisfy((e) => isMemoryError(e, "UNAVAILABLE"));
    expect(double.jobs[0]?.options.detachSignal?.aborted).toBe(true);
    expect(double.jobs[0]?.options.signal?.aborted).toBe(false);
    expect(double.cancelled).toEqual([]);
    expect(JSON.parse(readMeta(path, BATCH_API_PENDING_JOB_KEY) ?? "{}")).toMatchObject({ jobId: "job-1" });
    expect(readMeta(path, BATCH_API_FAILURES_KEY)).toBeUndefined();
    expect(double.documentRequests.calls).toBe(0);
  });

  it("after a restart, waits for the job left running instead of submitting it again", async () => {
    const path = await seededPath(12);
    const double = batchJobsProvider();
    await closeDuringJob(path, double);

    const again = openTestMemory({ path, embeddings: double.provider, settings: full(BATCH_ON) });
    expect(await again.backfillEmbeddings()).toBe(12);
    expect(double.jobs.map((j) => j.options.resumeJobId)).toEqual([undefined, "job-1"]);
    expect(double.submitted.size).toBe(1);
    expect(double.documentRequests.calls).toBe(0);
    expect((await again.status()).missingEmbeddings).toBe(0);
    expect(readMeta(path, BATCH_API_PENDING_JOB_KEY)).toBeUndefined();
  });

  it("submits afresh when the job left running is gone, or was for entries changed since", async () => {
    const path = await seededPath(12);
    const double = batchJobsProvider();
    await closeDuringJob(path, double);

    // Gone at the vendor: NOT_FOUND on resume, then one new job; no failure counted.
    double.submitted.delete("job-1");
    const again = SqliteMemory.open({ path, embeddings: double.provider, settings: full(BATCH_ON) });
    const heldAgain = double.holdNextJob();
    const second = again.backfillEmbeddings();
    await heldAgain.started;
    await again.close();
    await second.catch(() => undefined);
    expect(double.jobs.map((j) => j.options.resumeJobId)).toEqual([undefined, "job-1", undefined]);
    expect(readMeta(path, BATCH_API_FAILURES_KEY)).toBeUndefined();

    // An entry changed since job-2 was submitted: it is not resumed; a job for the new texts is.
    const edit = SqliteMemory.open({ path, embeddings: null });
    await edit.store("k0", "note 0 was rewritten while the job ran");
    await edit.close();
    const third = openTestMemory({ path, embeddings: double.provider, settings: full(BATCH_ON) });
    expect(await third.backfillEmbeddings()).toBe(12);
    expect(double.jobs.at(-1)?.options.resumeJobId).toBeUndefined();
    expect(double.jobs.at(-1)?.texts[0]).toBe("note 0 was rewritten while the job ran");
    // The job for the old texts is cancelled rather than left running unread.
    expect(double.cancelled).toEqual(["job-2"]);
    expect((await third.status()).missingEmbeddings).toBe(0);
  });
});

describe("batch API configuration", () => {
  it("reads the embedding_batch_api keys from TOML", () => {
    const { memory } = loadConfigFromToml(`
[memory]
embedding_batch_api = true
embedding_batch_api_min_entries = 500
embedding_batch_api_max_failures = 3
embedding_batch_api_poll_ms = 10000
embedding_batch_api_timeout_ms = 3600000
`);
    expect(memory).toMatchObject({
      embeddingBatchApi: true,
      embeddingBatchApiMinEntries: 500,
      embeddingBatchApiMaxFailures: 3,
      embeddingBatchApiPollMs: 10_000,
      embeddingBatchApiTimeoutMs: 3_600_000,
    });
  });

  it("opens at once and runs the start-up backfill's batch jobs in the background (backfill_on_startup)", async () => {
    const workspaceDir = tempDir();
    const seed = await createMemory({ workspaceDir, embeddings: null });
    await seed.import(Array.from({ length: 12 }, (_, i) => ({ key: `k${i}`, content: contentOf(i) })));
    await seed.close();
    const double = batchJobsProvider();
    const held = double.holdNextJob();
    let finished: () => void = () => {};
    const done = new Promise<void>((resolve) => {
      finished = resolve;
    });
    const logger = {
      ...silentLogger,
      info: (message: string) => {
        if (message === "backfill on startup finished") finished();
      },
    };

    const memory = await createMemory({
      workspaceDir,
      embeddings: double.provider,
      config: { ...BATCH_ON, backfillOnStartup: true },
      logger,
    });
    try {
      // Open while the job is still held: start-up did not wait for it.
      expect(await held.started).toHaveLength(12);
      expect((await memory.status()).missingEmbeddings).toBe(12);
      held.release();
      await done;
      expect((await memory.status()).missingEmbeddings).toBe(0);
    } finally {
      await memory.close();
    }
  });
});

/** Opens the store at `path`, starts a backfill, and closes the store while its first job is held. */
async function closeDuringJob(path: string, double: ReturnType<typeof batchJobsProvider>): Promise<void> {
  const memory = SqliteMemory.open({ path, embeddings: double.provider, settings: full(BATCH_ON) });
  const held = double.holdNextJob();
  const interrupted = memory.backfillEmbeddings();
  await held.started;
  await memory.close();
  await interrupted.catch(() => undefined);
}

function full(settings: Partial<MemorySettings>): MemorySettings {
  return { ...loadConfigFromToml("").memory, ...settings };
}
