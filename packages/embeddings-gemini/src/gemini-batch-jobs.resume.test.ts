// Gemini batch jobs that outlive a call: onSubmitted, detachSignal and resumeJobId, through the real
// @google/genai SDK against the loopback fake (which holds a batch running until released).
import type { EmbeddingBatchJobOptions, EmbeddingBatchJobs } from "@claw/memory-api";
import { isMemoryError, type MemoryError } from "@claw/memory-api";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { createEmbeddingProvider } from "./index.js";
import {
  type FakeGeminiBatchScript,
  type FakeGeminiServer,
  firstCharVector,
  startFakeGeminiServer,
} from "./test-support/fake-gemini-server.js";

let server: FakeGeminiServer;

beforeEach(async () => {
  server = await startFakeGeminiServer({ embed: firstCharVector });
});

afterEach(async () => {
  vi.restoreAllMocks();
  await server.close();
});

const CREATE = "POST /v1beta/models/gemini-embedding-001:asyncBatchEmbedContent";
const TEXTS = ["cherry", "apple", "banana"];

function batchJobs(dimensions?: number): EmbeddingBatchJobs {
  const provider = createEmbeddingProvider({
    apiKey: "key-1",
    baseURL: server.url,
    ...(dimensions === undefined ? {} : { dimensions }),
  });
  if (provider.batchJobs === undefined) throw new Error("the Gemini provider should offer batchJobs");
  return provider.batchJobs;
}

function requestLines(from = 0): string[] {
  return server.requests.slice(from).map((r) => `${r.method} ${r.path}`);
}

/** Submits a batch that stays running, detaches from it once it runs, and returns its name. */
async function detachedBatch(
  jobs: EmbeddingBatchJobs,
  texts: readonly string[],
  script: FakeGeminiBatchScript = {},
): Promise<string> {
  server.scriptNextBatch({ ...script, holdUntilReleased: true });
  const detach = new AbortController();
  const submitted: string[] = [];
  const reason = new Error("detached");
  await expect(
    jobs.embedInBatchJob(texts, {
      pollIntervalMs: 1,
      detachSignal: detach.signal,
      onSubmitted: (jobId) => submitted.push(jobId),
      onStatus: (status) => {
        if (status === "JOB_STATE_RUNNING") detach.abort(reason);
      },
    }),
  ).rejects.toBe(reason);
  expect(submitted).toHaveLength(1);
  return submitted[0] as string;
}

/** Resumes `jobId`, letting the fake finish it once the resumed job has seen it running. */
function resume(
  jobs: EmbeddingBatchJobs,
  texts: readonly string[],
  jobId: string,
  options: EmbeddingBatchJobOptions = {},
): Promise<Float32Array[]> {
  return jobs.embedInBatchJob(texts, {
    pollIntervalMs: 1,
    resumeJobId: jobId,
    ...options,
    onStatus: (status) => {
      options.onStatus?.(status);
      if (status === "JOB_STATE_RUNNING") server.releaseBatch(jobId);
    },
  });
}

describe("Gemini batch jobs: onSubmitted", () => {
  test("is told the batch name the server created, once, before the job is polled", async () => {
    const events: string[] = [];

    await batchJobs(4).embedInBatchJob(["a"], {
      pollIntervalMs: 1,
      onSubmitted: (jobId) => events.push(`submitted ${jobId} after ${server.requests.length} request(s)`),
      onStatus: (status) => events.push(status),
    });

    expect(server.batches().map((batch) => batch.name)).toEqual(["batches/fake1"]);
    expect(events).toEqual([
      "submitted batches/fake1 after 1 request(s)",
      "JOB_STATE_PENDING",
      "JOB_STATE_SUCCEEDED",
    ]);
  });

  test("a throwing onSubmitted cancels the job (it could never be resumed) and rejects with its error", async () => {
    const failure = new Error("cannot record the job");

    const job = batchJobs(4).embedInBatchJob(["a"], {
      pollIntervalMs: 1,
      onSubmitted: () => {
        throw failure;
      },
    });

    await expect(job).rejects.toBe(failure);
    expect(requestLines()).toEqual([CREATE, "POST /v1beta/batches/fake1:cancel"]);
    expect(server.batches()[0]?.state).toBe("BATCH_STATE_CANCELLED");
  });
});

describe("Gemini batch jobs: detachSignal", () => {
  test("stops polling with its reason, sends no cancel request, and leaves the batch running", async () => {
    const jobId = await detachedBatch(batchJobs(4), ["a", "b"]);

    expect(jobId).toBe("batches/fake1");
    expect(requestLines()).toEqual([CREATE, "GET /v1beta/batches/fake1"]);
    expect(server.batches()).toEqual([{ name: "batches/fake1", state: "BATCH_STATE_RUNNING", polls: 1 }]);
  });

  test("rejects with its reason when it fires during a poll, without cancelling", async () => {
    const detach = new AbortController();
    const reason = new Error("closing");
    server.scriptNextBatch({
      holdUntilReleased: true,
      // The abort lands while the SDK's GET is in flight.
      onPoll: (poll) => {
        if (poll === 2) detach.abort(reason);
      },
    });

    const job = batchJobs(4).embedInBatchJob(["a"], { pollIntervalMs: 1, detachSignal: detach.signal });

    await expect(job).rejects.toBe(reason);
    expect(requestLines()).toEqual([CREATE, "GET /v1beta/batches/fake1", "GET /v1beta/batches/fake1"]);
    expect(server.batches()[0]?.state).toBe("BATCH_STATE_RUNNING");
  });

  test("already aborted: rejects with its reason before anything is sent", async () => {
    const reason = new Error("closed already");

    const job = batchJobs(4).embedInBatchJob(["a"], { detachSignal: AbortSignal.abort(reason) });

    await expect(job).rejects.toBe(reason);
    expect(server.requests).toHaveLength(0);
  });
});

describe("Gemini batch jobs: resumeJobId", () => {
  test("waits for the detached batch without creating one and returns its vectors in input order", async () => {
    const warn = vi.spyOn(console, "warn");
    const log = vi.spyOn(console, "log");
    const jobs = batchJobs();
    const jobId = await detachedBatch(jobs, TEXTS);
    const before = server.requests.length;
    const statuses: string[] = [];
    const onSubmitted = vi.fn();

    const vectors = await resume(jobs, TEXTS, jobId, {
      onSubmitted,
      onStatus: (status) => statuses.push(status),
    });

    expect(vectors.map((vector) => vector[0])).toEqual([99, 97, 98]); // c, a, b
    expect(vectors.every((vector) => vector.length === 3072)).toBe(true);
    expect(statuses).toEqual(["JOB_STATE_RUNNING", "JOB_STATE_SUCCEEDED"]);
    expect(requestLines(before)).toEqual(["GET /v1beta/batches/fake1", "GET /v1beta/batches/fake1"]);
    expect(requestLines().filter((line) => line === CREATE)).toHaveLength(1);
    expect(onSubmitted).not.toHaveBeenCalled();
    expect(server.batches()).toEqual([{ name: "batches/fake1", state: "BATCH_STATE_SUCCEEDED", polls: 3 }]);
    // The same vectors (values, order, normalisation) as a fresh job's.
    expect(vectors).toEqual(await jobs.embedInBatchJob(TEXTS, { pollIntervalMs: 1 }));
    expect(warn).not.toHaveBeenCalled();
    expect(log).not.toHaveBeenCalled();
  });

  test("a batch that already ended is read at once, without waiting a poll interval", async () => {
    const jobs = batchJobs(4);
    const jobId = await detachedBatch(jobs, TEXTS);
    server.releaseBatch(jobId);

    // A day-long interval: only a first poll without a wait can finish this.
    const vectors = await jobs.embedInBatchJob(TEXTS, { resumeJobId: jobId, pollIntervalMs: 86_400_000 });

    expect(vectors).toHaveLength(3);
    expect(requestLines().filter((line) => line === CREATE)).toHaveLength(1);
  });

  test("an unknown batch rejects as NOT_FOUND after one request, and nothing is cancelled", async () => {
    const error = await batchJobs(4)
      .embedInBatchJob(TEXTS, { resumeJobId: "batches/gone", pollIntervalMs: 1 })
      .catch((e: unknown) => e);

    expect(isMemoryError(error, "NOT_FOUND")).toBe(true);
    expect((error as MemoryError).retryable).toBe(false);
    expect((error as Error).message).toBe("gemini: batch batches/gone not found (deleted, or expired)");
    expect(requestLines()).toEqual(["GET /v1beta/batches/gone"]);
  });

  test("a malformed id is INVALID_INPUT, before any request", async () => {
    const error = await batchJobs(4)
      .embedInBatchJob(TEXTS, { resumeJobId: "fake1?x=1" })
      .catch((e: unknown) => e);

    expect(isMemoryError(error, "INVALID_INPUT")).toBe(true);
    expect((error as MemoryError).field).toBe("resumeJobId");
    expect(server.requests).toHaveLength(0);
  });

  test.each([
    ["failed", "PROVIDER", "gemini: batch batches/fake2 failed"],
    ["expired", "TIMEOUT", "gemini: batch batches/fake2 expired before it completed"],
  ] as const)("a resumed batch that %s rejects as a fresh one does (%s)", async (outcome, code, message) => {
    const jobs = batchJobs(4);
    server.scriptNextBatch({ outcome });
    const fresh = await jobs.embedInBatchJob(TEXTS, { pollIntervalMs: 1 }).catch((e: unknown) => e);
    const jobId = await detachedBatch(jobs, TEXTS, { outcome });
    const before = server.requests.length;

    const resumed = await resume(jobs, TEXTS, jobId).catch((e: unknown) => e);

    expect(jobId).toBe("batches/fake2");
    expect(isMemoryError(resumed, code)).toBe(true);
    expect(isMemoryError(fresh, code)).toBe(true);
    expect((resumed as MemoryError).message).toBe(message);
    expect((resumed as MemoryError).message).toBe((fresh as Error).message.replace("fake1", "fake2"));
    expect((resumed as MemoryError).retryable).toBe((fresh as MemoryError).retryable);
    expect(requestLines(before)).toEqual(["GET /v1beta/batches/fake2", "GET /v1beta/batches/fake2"]);
  });

  test("signal (not detachSignal) aborting a resumed job cancels the batch", async () => {
    const jobs = batchJobs(4);
    const jobId = await detachedBatch(jobs, TEXTS);
    const before = server.requests.length;
    const controller = new AbortController();
    const reason = new Error("stop now");

    const job = jobs.embedInBatchJob(TEXTS, {
      pollIntervalMs: 1,
      resumeJobId: jobId,
      signal: controller.signal,
      detachSignal: new AbortController().signal,
      onStatus: (status) => {
        if (status === "JOB_STATE_RUNNING") controller.abort(reason);
      },
    });

    await expect(job).rejects.toBe(reason);
    expect(requestLines(before)).toEqual(["GET /v1beta/batches/fake1", "POST /v1beta/batches/fake1:cancel"]);
    expect(server.batches()[0]?.state).toBe("BATCH_STATE_CANCELLED");
  });

  test("detachSignal on a resumed job leaves the batch running again, to be resumed once more", async () => {
    const jobs = batchJobs();
    const jobId = await detachedBatch(jobs, TEXTS);
    const detach = new AbortController();
    const reason = new Error("detached again");

    const second = jobs.embedInBatchJob(TEXTS, {
      pollIntervalMs: 1,
      resumeJobId: jobId,
      detachSignal: detach.signal,
      onStatus: (status) => {
        if (status === "JOB_STATE_RUNNING") detach.abort(reason);
      },
    });

    await expect(second).rejects.toBe(reason);
    expect(requestLines().some((line) => line.endsWith(":cancel"))).toBe(false);
    expect(server.batches()[0]?.state).toBe("BATCH_STATE_RUNNING");
    expect((await resume(jobs, TEXTS, jobId)).map((vector) => vector[0])).toEqual([99, 97, 98]);
  });
});

describe("cancelJob", () => {
  test("cancels a batch left running", async () => {
    const jobs = batchJobs();
    const name = await detachedBatch(jobs, TEXTS);
    const from = server.requests.length;

    await jobs.cancelJob?.(name);

    expect(requestLines(from)).toEqual([`POST /v1beta/${name}:cancel`]);
    expect(server.batches().find((b) => b.name === name)?.state).toBe("BATCH_STATE_CANCELLED");
  });

  test("never rejects: an unknown batch, or no batch name at all", async () => {
    const jobs = batchJobs();
    await expect(jobs.cancelJob?.("batches/unknown")).resolves.toBeUndefined();
    const from = server.requests.length;
    await expect(jobs.cancelJob?.("not-a-batch")).resolves.toBeUndefined();
    expect(requestLines(from)).toEqual([]);
  });
});
