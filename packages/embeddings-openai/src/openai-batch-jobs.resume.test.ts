// Detaching from an OpenAI batch job and resuming it: the real openai SDK against the loopback fake.
import type { EmbeddingBatchJobOptions } from "@claw/memory-api";
import { isMemoryError } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { createEmbeddingProvider } from "./index.js";
import {
  defaultEmbedder,
  type FakeBatchScript,
  useFakeOpenAIServer,
} from "./test-support/fake-openai-server.js";

const fake = await useFakeOpenAIServer();
const LABEL = "openai embeddings (text-embedding-3-small)";
const texts = ["alpha", "beta", "gamma"];

function batchJobs(fetch?: typeof globalThis.fetch) {
  const provider = createEmbeddingProvider({
    apiKey: "sk-test",
    baseURL: fake.baseURL,
    dimensions: 16,
    ...(fetch ? { fetch } : {}),
  });
  const jobs = provider.batchJobs;
  if (jobs === undefined) throw new Error("the OpenAI provider should offer batchJobs");
  return jobs;
}

function paths(from = 0): string[] {
  return fake.requests.slice(from).map((r) => `${r.method} ${r.path}`);
}

/** Submits a job the fake holds in progress and detaches at its first poll; resolves to its id. */
async function detachedJob(input: readonly string[], script: FakeBatchScript = {}): Promise<string> {
  fake.scriptNextBatch({ ...script, hold: true });
  const detach = new AbortController();
  const reason = new Error("detached");
  const submitted: string[] = [];
  await expect(
    batchJobs().embedInBatchJob(input, {
      pollIntervalMs: 1,
      detachSignal: detach.signal,
      onSubmitted: (id) => submitted.push(id),
      onStatus: (status) => {
        if (status === "in_progress") detach.abort(reason);
      },
    }),
  ).rejects.toBe(reason);
  expect(submitted).toHaveLength(1);
  return submitted[0] as string;
}

/** Resumes `jobId`, releasing the held batch once the resumed job has seen it in progress. */
function resumed(input: readonly string[], jobId: string, options: EmbeddingBatchJobOptions = {}) {
  const statuses: string[] = [];
  const submitted: string[] = [];
  const job = batchJobs().embedInBatchJob(input, {
    pollIntervalMs: 1,
    resumeJobId: jobId,
    onSubmitted: (id) => submitted.push(id),
    ...options,
    onStatus: (status) => {
      statuses.push(status);
      if (status === "in_progress") fake.releaseBatch(jobId);
      options.onStatus?.(status);
    },
  });
  return { job, statuses, submitted };
}

describe("onSubmitted", () => {
  it("is told the id of the batch the server created, once, right after it was created", async () => {
    const events: string[] = [];

    const vectors = await batchJobs().embedInBatchJob(texts, {
      pollIntervalMs: 1,
      onSubmitted: (id) => events.push(`submitted ${id} after ${paths().join(", ")}`),
      onStatus: (status) => events.push(status),
    });

    expect(vectors).toEqual(await defaultEmbedder(texts, 16));
    expect(events).toEqual([
      "submitted batch_2 after POST /v1/files, POST /v1/batches",
      "validating",
      "completed",
    ]);
    expect(fake.batchStatus("batch_2")).toBe("completed");
  });
});

describe("detachSignal", () => {
  it("stops polling with its reason, cancels nothing and leaves the batch and its input file on the server", async () => {
    fake.scriptNextBatch({ hold: true });
    const detach = new AbortController();
    const reason = new Error("shutting down");
    const submitted: string[] = [];

    const job = batchJobs().embedInBatchJob(texts, {
      pollIntervalMs: 1,
      detachSignal: detach.signal,
      onSubmitted: (id) => submitted.push(id),
      onStatus: (status) => {
        if (status === "in_progress") detach.abort(reason);
      },
    });

    await expect(job).rejects.toBe(reason);
    expect(submitted).toEqual(["batch_2"]);
    expect(paths()).toEqual(["POST /v1/files", "POST /v1/batches", "GET /v1/batches/batch_2"]);
    expect(fake.countRequests("POST", /\/cancel$/)).toBe(0);
    expect(fake.deletedFiles()).toEqual([]);
    expect(fake.storedFiles()).toEqual(["file-1"]);
    expect(fake.batchStatus("batch_2")).toBe("in_progress");
  });

  it("lets the batch being created finish, reports its id and then detaches without a poll", async () => {
    const detach = new AbortController();
    const reason = new Error("detached during create");
    const submitted: string[] = [];
    // Detaches the moment the SDK sends POST /v1/batches, before the server has answered it.
    const detachOnCreate: typeof globalThis.fetch = (input, init) => {
      if (init?.method === "POST" && String(input).endsWith("/v1/batches")) detach.abort(reason);
      return globalThis.fetch(input, init);
    };

    const job = batchJobs(detachOnCreate).embedInBatchJob(texts, {
      pollIntervalMs: 1,
      detachSignal: detach.signal,
      onSubmitted: (id) => submitted.push(id),
    });

    await expect(job).rejects.toBe(reason);
    expect(submitted).toEqual(["batch_2"]);
    expect(paths()).toEqual(["POST /v1/files", "POST /v1/batches"]);
    expect(fake.storedFiles()).toEqual(["file-1"]);
    expect(fake.batchStatus("batch_2")).toBe("validating");
  });

  it("rejects with its reason before any request when already aborted", async () => {
    const reason = new Error("already detached");

    await expect(
      batchJobs().embedInBatchJob(texts, { detachSignal: AbortSignal.abort(reason) }),
    ).rejects.toBe(reason);
    expect(fake.requests).toHaveLength(0);
  });
});

describe("resumeJobId", () => {
  it("waits for the detached batch without uploading or creating one, returns its vectors in order, deletes its files", async () => {
    const many = Array.from({ length: 3000 }, (_, i) => `text number ${i}`); // two request lines
    const jobId = await detachedJob(many);
    const before = fake.requests.length;
    fake.reverseOrder(true); // each line's data listed back to front

    const { job, statuses, submitted } = resumed(many, jobId);

    expect(await job).toEqual(await defaultEmbedder(many, 16));
    expect(statuses).toEqual(["in_progress", "completed"]);
    expect(submitted).toEqual([]);
    expect(paths(before)).toEqual([
      "GET /v1/batches/batch_2",
      "GET /v1/batches/batch_2",
      "GET /v1/files/file-3/content",
      "DELETE /v1/files/file-1",
      "DELETE /v1/files/file-3",
    ]);
    // The first run's upload and batch are the only ones.
    expect(fake.countRequests("POST", "/v1/files")).toBe(1);
    expect(fake.countRequests("POST", "/v1/batches")).toBe(1);
    expect(fake.storedFiles()).toEqual([]);
  });

  it("collects a batch that completed while detached at the first look", async () => {
    const jobId = await detachedJob(texts);
    fake.releaseBatch(jobId);
    const before = fake.requests.length;

    const { job, statuses } = resumed(texts, jobId);

    expect(await job).toEqual(await defaultEmbedder(texts, 16));
    expect(statuses).toEqual(["completed"]);
    expect(paths(before)).toEqual([
      "GET /v1/batches/batch_2",
      "GET /v1/files/file-3/content",
      "DELETE /v1/files/file-1",
      "DELETE /v1/files/file-3",
    ]);
  });

  it("rejects an unknown batch id as NOT_FOUND, without cancelling or deleting anything", async () => {
    const error = await batchJobs()
      .embedInBatchJob(texts, { pollIntervalMs: 1, resumeJobId: "batch_gone" })
      .catch((e: unknown) => e);

    expect(isMemoryError(error, "NOT_FOUND")).toBe(true);
    expect((error as Error).message).toBe(`${LABEL}: no batch batch_gone to resume`);
    expect(paths()).toEqual(["GET /v1/batches/batch_gone"]);
  });

  it("rejects an empty id as INVALID_INPUT without a request", async () => {
    await expect(batchJobs().embedInBatchJob(texts, { resumeJobId: "" })).rejects.toSatisfy((e) =>
      isMemoryError(e, "INVALID_INPUT"),
    );
    expect(fake.requests).toHaveLength(0);
  });

  it.each([
    ["failed", "PROVIDER", "batch batch_2 failed (invalid_request: fake validation failure)"],
    ["expired", "TIMEOUT", "batch batch_2 expired before it completed (24 h window)"],
    ["cancelled", "PROVIDER", "batch batch_2 was cancelled"],
  ] as const)(
    "rejects a resumed batch that ends %s as a fresh job would (%s)",
    async (outcome, code, message) => {
      const jobId = await detachedJob(texts, { outcome });

      const error = await resumed(texts, jobId).job.catch((e: unknown) => e);

      expect(isMemoryError(error, code)).toBe(true);
      expect((error as Error).message).toBe(`${LABEL}: ${message}`);
      expect(fake.deletedFiles()).toEqual(["file-1"]);
    },
  );

  it("cancels a resumed batch when `signal` aborts", async () => {
    const jobId = await detachedJob(texts);
    const before = fake.requests.length;
    const controller = new AbortController();
    const reason = new Error("stop now");

    const job = batchJobs().embedInBatchJob(texts, {
      pollIntervalMs: 1,
      resumeJobId: jobId,
      signal: controller.signal,
      detachSignal: new AbortController().signal,
      onStatus: (status) => {
        if (status === "in_progress") controller.abort(reason);
      },
    });

    await expect(job).rejects.toBe(reason);
    expect(paths(before)).toEqual([
      "GET /v1/batches/batch_2",
      "POST /v1/batches/batch_2/cancel",
      "DELETE /v1/files/file-1",
    ]);
    expect(fake.batchStatus(jobId)).toBe("cancelling");
  });

  it("can be detached from again and resumed once more", async () => {
    const jobId = await detachedJob(texts);
    const detach = new AbortController();
    const reason = new Error("detached again");

    const again = batchJobs().embedInBatchJob(texts, {
      pollIntervalMs: 1,
      resumeJobId: jobId,
      detachSignal: detach.signal,
      onStatus: (status) => {
        if (status === "in_progress") detach.abort(reason);
      },
    });

    await expect(again).rejects.toBe(reason);
    expect(fake.countRequests("POST", /\/cancel$/)).toBe(0);
    expect(fake.batchStatus(jobId)).toBe("in_progress");
    expect(await resumed(texts, jobId).job).toEqual(await defaultEmbedder(texts, 16));
    expect(fake.storedFiles()).toEqual([]);
  });
});

describe("cancelJob", () => {
  it("cancels a batch left running and deletes its input file", async () => {
    const jobId = await detachedJob(texts);
    const [input] = fake.storedFiles();
    expect(input).toBeDefined();
    const from = fake.requests.length;

    await batchJobs().cancelJob?.(jobId);

    expect(paths(from)).toEqual([
      `GET /v1/batches/${jobId}`,
      `POST /v1/batches/${jobId}/cancel`,
      `DELETE /v1/files/${input}`,
    ]);
    expect(fake.batchStatus(jobId)).toMatch(/^cancell/);
    expect(fake.storedFiles()).not.toContain(input);
  });

  it("leaves alone a batch OpenAI does not know, without rejecting", async () => {
    const from = fake.requests.length;
    await expect(batchJobs().cancelJob?.("batch_unknown")).resolves.toBeUndefined();
    expect(paths(from)).toEqual(["GET /v1/batches/batch_unknown"]);
  });
});
