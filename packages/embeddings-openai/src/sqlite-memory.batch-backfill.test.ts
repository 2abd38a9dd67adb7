// Core's backfill through OpenAI's Batch API: the real SDK, core's real store, the loopback fake.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Logger } from "@claw/memory-api";
import {
  createHashingEmbeddingProvider,
  DEFAULT_CONFIG,
  type MemorySettings,
  SqliteMemory,
} from "@claw/memory-core";
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { createEmbeddingProvider } from "./index.js";
import { type FakeOpenAIServer, startFakeOpenAIServer } from "./test-support/fake-openai-server.js";

const DIMENSIONS = 64;
const hashing = createHashingEmbeddingProvider({ dimensions: DIMENSIONS });
let fake: FakeOpenAIServer;
let dir: string;

beforeAll(async () => {
  fake = await startFakeOpenAIServer();
  fake.setEmbedder((texts) => hashing.embed(texts));
  dir = await mkdtemp(join(tmpdir(), "claw-openai-batch-"));
});
afterEach(() => {
  fake.reset();
  // Vectors that carry meaning, computed server-side, so recall by embedding finds the right entry.
  fake.setEmbedder((texts) => hashing.embed(texts));
});
afterAll(async () => {
  await fake.close();
  await rm(dir, { recursive: true, force: true });
});

const BATCH_ON: Partial<MemorySettings> = { embeddingBatchApi: true, embeddingBatchApiPollMs: 1 };
let databases = 0;

function contentOf(i: number): string {
  return `entry ${i} records that project${i} ships in week ${i % 52}`;
}

/** A database holding `count` keyword-only entries: each needs a vector from the backfill. */
async function seeded(count: number): Promise<string> {
  const path = join(dir, `brain-${databases++}.db`);
  const seed = SqliteMemory.open({ path, embeddings: null });
  await seed.import(Array.from({ length: count }, (_, i) => ({ key: `k${i}`, content: contentOf(i) })));
  await seed.close();
  return path;
}

function open(path: string, settings: Partial<MemorySettings>, logger?: Logger): SqliteMemory {
  const provider = createEmbeddingProvider({
    apiKey: "sk-test",
    baseURL: fake.baseURL,
    dimensions: DIMENSIONS,
  });
  const memory = SqliteMemory.open({
    path,
    embeddings: provider,
    settings: { ...DEFAULT_CONFIG.memory, ...settings },
    ...(logger ? { logger } : {}),
  });
  onTestFinished(() => memory.close());
  return memory;
}

function countBy(method: string, pattern: RegExp): number {
  return fake.requests.filter((r) => r.method === method && pattern.test(r.path)).length;
}

function warnLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, debug() {}, info() {}, warn: (message) => void warnings.push(message), error() {} };
}

describe("SqliteMemory backfill through the OpenAI Batch API", () => {
  it("embeds 2 000 entries with 1 upload, 1 batch and polls, no /v1/embeddings call; recall finds them", async () => {
    const memory = open(await seeded(2000), BATCH_ON);
    fake.scriptNextBatch({ completeAfterPolls: 2 });
    const progress: [number, number][] = [];

    expect(await memory.backfillEmbeddings(64, { onProgress: (d, t) => progress.push([d, t]) })).toBe(2000);

    expect(countBy("POST", /^\/v1\/files$/)).toBe(1);
    expect(countBy("POST", /^\/v1\/batches$/)).toBe(1);
    expect(countBy("GET", /^\/v1\/batches\/batch_2$/)).toBe(2);
    expect(fake.embeddingRequests()).toHaveLength(0);
    expect(progress).toEqual([[2000, 2000]]);
    expect((await memory.status()).missingEmbeddings).toBe(0);

    const [stored] = await memory
      .export({ includeEmbeddings: true, namespace: "default" })
      .then((all) => all.filter((e) => e.key === "k1234"));
    expect(Array.from(stored?.embedding ?? [])).toEqual(
      Array.from((await hashing.embed([contentOf(1234)]))[0] ?? []),
    );
    const hybrid = await memory.recall("when does project1234 ship", { limit: 1 });
    expect(hybrid.map((e) => e.key)).toEqual(["k1234"]);
    const byVector = await memory.recall("project777 ships", { mode: "embedding", limit: 1 });
    expect(byVector.map((e) => e.key)).toEqual(["k777"]);
  });

  it("uses /v1/embeddings when embedding_batch_api is off", async () => {
    const memory = open(await seeded(2000), {});

    expect(await memory.backfillEmbeddings()).toBe(2000);

    expect(fake.batchApiRequests()).toHaveLength(0);
    const inputs = fake.embeddingRequests().map((r) => (r.body.input as string[]).length);
    expect(inputs.reduce((a, b) => a + b, 0)).toBe(2000);
  });

  it("drops the vector of an entry whose content changed while the job ran", async () => {
    const memory = open(await seeded(1000), { ...BATCH_ON, deferEmbedding: false });
    const changed = "entry 5 now says the garden needs watering";
    fake.scriptNextBatch({
      completeAfterPolls: 2,
      onPoll: async (poll) => {
        if (poll === 1) await memory.store("k5", changed);
      },
    });

    expect(await memory.backfillEmbeddings()).toBe(999);

    const entry = (await memory.export({ includeEmbeddings: true })).find((e) => e.key === "k5");
    expect(entry?.content).toBe(changed);
    expect(Array.from(entry?.embedding ?? [])).toEqual(Array.from((await hashing.embed([changed]))[0] ?? []));
    expect((await memory.status()).missingEmbeddings).toBe(0);
  });

  it("fails a job with a failed request line and embeds its entries with normal requests", async () => {
    const memory = open(await seeded(1000), BATCH_ON);
    fake.scriptNextBatch({ lineError: () => ({ status: 400, message: "bad line", code: "invalid_input" }) });

    expect(await memory.backfillEmbeddings()).toBe(1000);

    expect(countBy("POST", /^\/v1\/batches$/)).toBe(1);
    const inputs = fake.embeddingRequests().map((r) => (r.body.input as string[]).length);
    expect(inputs.reduce((a, b) => a + b, 0)).toBe(1000);
    expect((await memory.status()).missingEmbeddings).toBe(0);
  });
});

describe("failing batch jobs", () => {
  // No embedding cache: every reindex has to embed everything again, so each one submits a job.
  const NO_CACHE: Partial<MemorySettings> = { ...BATCH_ON, embeddingCacheMax: 0 };

  it("two failed jobs in a row turn the batch API off, across a restart; entries still get vectors", async () => {
    const path = await seeded(1000);
    const logger = warnLogger();
    const memory = open(path, NO_CACHE, logger);
    fake.scriptNextBatch({ outcome: "failed" }, 2);

    expect(await memory.backfillEmbeddings()).toBe(1000);
    expect(logger.warnings).toEqual([]);
    expect(await memory.reindex()).toBe(1000);

    expect(countBy("POST", /^\/v1\/batches$/)).toBe(2);
    expect((await memory.status()).missingEmbeddings).toBe(0);
    expect(logger.warnings).toHaveLength(1);
    expect(logger.warnings[0]).toMatch(
      /^embedding batch API disabled after 2 consecutive failed jobs \(last: PROVIDER: openai embeddings \(text-embedding-3-small\): batch batch_\d+ failed/,
    );
    expect((await memory.status()).warnings).toEqual(logger.warnings);
    await memory.close();

    fake.reset();
    const reopened = open(path, NO_CACHE);
    expect((await reopened.status()).warnings).toEqual(logger.warnings);
    expect(await reopened.reindex()).toBe(1000);
    expect(fake.batchApiRequests()).toHaveLength(0);
    expect(fake.embeddingRequests().length).toBeGreaterThan(0);
  });

  it("a successful job resets the count of failures", async () => {
    const memory = open(await seeded(1000), NO_CACHE);
    fake.scriptNextBatch({ outcome: "expired" });
    await memory.backfillEmbeddings(); // failure 1
    fake.scriptNextBatch({}); // success: the count starts again
    await memory.reindex();
    fake.scriptNextBatch({ outcome: "cancelled" });
    await memory.reindex(); // failure 1 again, not 2
    await memory.reindex(); // so this one still uses the batch API, and succeeds

    expect(countBy("POST", /^\/v1\/batches$/)).toBe(4);
    expect((await memory.status()).warnings).toBeUndefined();
    expect((await memory.status()).missingEmbeddings).toBe(0);
  });

  it("a restart waits for the batch left running when the store closed: one upload, one batch in all", async () => {
    const path = await seeded(1500);
    // The log says when the job is being polled, and when the restarted store resumed it.
    const seen = new Map<string, () => void>();
    const when = (message: string) => new Promise<void>((resolve) => void seen.set(message, resolve));
    const logger = {
      ...warnLogger(),
      debug: (message: string, data?: Record<string, unknown>) => seen.get(`${message}: ${data?.status}`)?.(),
      info: (message: string) => seen.get(message)?.(),
    };
    const polled = when("embedding batch job status: in_progress");
    const first = open(path, BATCH_ON, logger);
    fake.scriptNextBatch({ hold: true, completeAfterPolls: 1 });
    const interrupted = first.backfillEmbeddings();
    await polled;
    await first.close();
    await interrupted.catch(() => undefined);
    // Detached, not cancelled.
    expect(countBy("POST", /\/cancel$/)).toBe(0);
    const id = fake.requests
      .find((r) => r.method === "GET" && /^\/v1\/batches\//.test(r.path))
      ?.path.split("/")
      .at(-1);
    expect(fake.batchStatus(id as string)).toBe("in_progress");

    const resumedLog = when("embedding batch job resumed");
    const again = open(path, BATCH_ON, logger);
    const resumed = again.backfillEmbeddings();
    await resumedLog;
    fake.releaseBatch(id as string);
    expect(await resumed).toBe(1500);
    expect(countBy("POST", /^\/v1\/files$/)).toBe(1);
    expect(countBy("POST", /^\/v1\/batches$/)).toBe(1);
    expect(countBy("POST", /^\/v1\/embeddings$/)).toBe(0);
    expect((await again.status()).missingEmbeddings).toBe(0);
    const hits = await again.recall(contentOf(321), { mode: "embedding", limit: 1 });
    expect(hits.map((h) => h.key)).toEqual(["k321"]);
  });
});
