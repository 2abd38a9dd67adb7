// OpenAI's Batch API through the real openai SDK against the loopback fake.
import { isMemoryError } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { createEmbeddingProvider } from "./index.js";
import { defaultEmbedder, useFakeOpenAIServer } from "./test-support/fake-openai-server.js";

const fake = await useFakeOpenAIServer();

function batchJobs(dimensions = 16) {
  const provider = createEmbeddingProvider({ apiKey: "sk-test", baseURL: fake.baseURL, dimensions });
  const jobs = provider.batchJobs;
  if (jobs === undefined) throw new Error("the OpenAI provider should offer batchJobs");
  return jobs;
}

const texts = ["alpha", "beta", "gamma"];

describe("OpenAI batch jobs", () => {
  it("uploads one JSONL file, creates one batch, polls until completed and returns vectors in order", async () => {
    fake.scriptNextBatch({ completeAfterPolls: 3 });
    const statuses: string[] = [];

    const vectors = await batchJobs(16).embedInBatchJob(texts, {
      pollIntervalMs: 1,
      onStatus: (status) => statuses.push(status),
    });

    expect(vectors).toEqual(await defaultEmbedder(texts, 16));
    expect(statuses).toEqual(["validating", "in_progress", "completed"]);
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "POST /v1/files",
      "POST /v1/batches",
      "GET /v1/batches/batch_2",
      "GET /v1/batches/batch_2",
      "GET /v1/batches/batch_2",
      "GET /v1/files/file-3/content",
      "DELETE /v1/files/file-1",
      "DELETE /v1/files/file-3",
    ]);
    expect(fake.requests[0]?.body).toEqual({
      purpose: "batch",
      file: {
        filename: "claw-memory-embeddings.jsonl",
        type: "application/jsonl",
        bytes: expect.any(Number),
      },
    });
    const [upload] = fake.uploadedFiles();
    expect(upload?.text.endsWith("\n")).toBe(true);
    expect(
      upload?.text
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line)),
    ).toEqual([
      {
        custom_id: "texts-0-3",
        method: "POST",
        url: "/v1/embeddings",
        body: { model: "text-embedding-3-small", input: texts, encoding_format: "base64", dimensions: 16 },
      },
    ]);
    expect(fake.requests[1]?.body).toEqual({
      input_file_id: "file-1",
      endpoint: "/v1/embeddings",
      completion_window: "24h",
    });
    expect(fake.requests[1]?.headers.authorization).toBe("Bearer sk-test");
    expect(fake.embeddingRequests()).toHaveLength(0);
  });

  it("splits the texts into request lines of at most 2048 inputs and maps custom_id back to positions", async () => {
    const many = Array.from({ length: 5000 }, (_, i) => `text number ${i}`);
    fake.reverseOrder(true); // each line's data listed back to front

    const vectors = await batchJobs(8).embedInBatchJob(many, { pollIntervalMs: 1 });

    const lines =
      fake
        .uploadedFiles()[0]
        ?.text.trim()
        .split("\n")
        .map((line) => JSON.parse(line)) ?? [];
    expect(
      lines.map((l: { custom_id: string; body: { input: string[] } }) => [l.custom_id, l.body.input.length]),
    ).toEqual([
      ["texts-0-2048", 2048],
      ["texts-2048-4096", 2048],
      ["texts-4096-5000", 904],
    ]);
    expect(vectors).toHaveLength(5000);
    expect(vectors[0]).toEqual((await defaultEmbedder([many[0] as string], 8))[0]);
    expect(vectors[4999]).toEqual((await defaultEmbedder([many[4999] as string], 8))[0]);
    expect(vectors[2048]).toEqual((await defaultEmbedder([many[2048] as string], 8))[0]);
  });

  it("keeps polling through a failed poll (503)", async () => {
    const vectors = await batchJobs().embedInBatchJob(texts, {
      pollIntervalMs: 1,
      // Called once the batch exists, before the first poll: that poll is the one to fail.
      onStatus: (status) => {
        if (status === "validating") fake.failNext({ status: 503 });
      },
    });

    expect(vectors).toEqual(await defaultEmbedder(texts, 16));
    const polls = fake.requests.filter((r) => r.method === "GET" && r.path.startsWith("/v1/batches/"));
    expect(polls).toHaveLength(2);
  });

  it.each([
    [400, "PROVIDER"],
    [401, "PROVIDER_AUTH"],
    [429, "RATE_LIMITED"],
  ] as const)(
    "fails the job when a request line fails with %i, as %s with the line's message",
    async (status, code) => {
      fake.scriptNextBatch({
        lineError: ({ customId }) =>
          customId === "texts-0-3" ? { status, message: "input too long", code: "bad_input" } : undefined,
      });

      const error = await batchJobs()
        .embedInBatchJob(texts, { pollIntervalMs: 1 })
        .catch((e: unknown) => e);

      expect(isMemoryError(error, code)).toBe(true);
      expect((error as Error).message).toBe(
        "openai embeddings (text-embedding-3-small): batch batch_2: 1 of 1 requests failed (bad_input: input too long)",
      );
      // The error file was read for the message, then every file deleted.
      expect(fake.requests.some((r) => r.path === "/v1/files/file-3/content")).toBe(true);
      expect(fake.deletedFiles()).toEqual(["file-1", "file-3"]);
    },
  );

  it("fails the job on a non-200 line in the output file", async () => {
    const many = Array.from({ length: 3000 }, (_, i) => `t${i}`);
    fake.scriptNextBatch({
      lineError: ({ customId }) =>
        customId === "texts-2048-3000" ? { status: 500, message: "boom" } : undefined,
      failedLinesIn: "output-file",
    });

    await expect(batchJobs().embedInBatchJob(many, { pollIntervalMs: 1 })).rejects.toThrow(
      "openai embeddings (text-embedding-3-small): batch batch_2: request texts-2048-3000 failed (boom)",
    );
  });

  it.each([
    ["failed", "PROVIDER", "batch batch_2 failed (invalid_request: fake validation failure)"],
    ["expired", "TIMEOUT", "batch batch_2 expired before it completed (24 h window)"],
    ["cancelled", "PROVIDER", "batch batch_2 was cancelled"],
  ] as const)("rejects a %s job as %s", async (outcome, code, message) => {
    fake.scriptNextBatch({ outcome, completeAfterPolls: 2 });

    const error = await batchJobs()
      .embedInBatchJob(texts, { pollIntervalMs: 1 })
      .catch((e: unknown) => e);

    expect(isMemoryError(error, code)).toBe(true);
    expect((error as Error).message).toBe(`openai embeddings (text-embedding-3-small): ${message}`);
    expect(fake.deletedFiles()).toEqual(["file-1"]);
  });

  it("stops polling when aborted, cancels the batch, and rejects with the abort reason", async () => {
    fake.scriptNextBatch({ completeAfterPolls: 1_000 });
    const controller = new AbortController();
    const reason = new Error("stop now");

    const job = batchJobs().embedInBatchJob(texts, {
      pollIntervalMs: 1,
      signal: controller.signal,
      onStatus: (status) => {
        if (status === "in_progress") controller.abort(reason);
      },
    });

    await expect(job).rejects.toBe(reason);
    const paths = fake.requests.map((r) => `${r.method} ${r.path}`);
    // Cancelled, and its input file deleted: nothing of it stays at OpenAI.
    expect(paths.slice(-2)).toEqual(["POST /v1/batches/batch_2/cancel", "DELETE /v1/files/file-1"]);
    expect(paths.filter((p) => p === "GET /v1/batches/batch_2")).toHaveLength(1);
  });

  it("fails before creating a batch when the upload is refused", async () => {
    fake.failNext({ status: 401 });

    const error = await batchJobs()
      .embedInBatchJob(texts, { pollIntervalMs: 1 })
      .catch((e: unknown) => e);

    expect(isMemoryError(error, "PROVIDER_AUTH")).toBe(true);
    expect(fake.requests.map((r) => r.path)).toEqual(["/v1/files"]);
  });

  it("rejects more texts than maxTextsPerJob as INVALID_INPUT without a request", async () => {
    const jobs = batchJobs();
    expect(jobs.maxTextsPerJob).toBe(10_000);
    expect(jobs.maxCharsPerJob).toBe(50_000_000);

    await expect(jobs.embedInBatchJob(Array.from({ length: 10_001 }, () => "x"))).rejects.toSatisfy((e) =>
      isMemoryError(e, "INVALID_INPUT"),
    );
    expect(await jobs.embedInBatchJob([])).toEqual([]);
    expect(fake.requests).toHaveLength(0);
  });
});

describe("which endpoints offer batch jobs", () => {
  it("OpenAI by default; OpenRouter and custom endpoints only with batchApi: true", () => {
    const custom = { provider: "custom", baseURL: fake.baseURL, model: "m", dimensions: 4 } as const;
    expect(createEmbeddingProvider({ apiKey: "k" }).batchJobs).toBeDefined();
    expect(createEmbeddingProvider({ apiKey: "k", batchApi: false }).batchJobs).toBeUndefined();
    expect(createEmbeddingProvider({ provider: "openrouter", apiKey: "k" }).batchJobs).toBeUndefined();
    expect(
      createEmbeddingProvider({ provider: "openrouter", apiKey: "k", batchApi: true }).batchJobs,
    ).toBeDefined();
    expect(createEmbeddingProvider(custom).batchJobs).toBeUndefined();
    expect(createEmbeddingProvider({ ...custom, batchApi: true }).batchJobs).toBeDefined();
    expect(() => createEmbeddingProvider({ batchApi: "yes" as unknown as boolean })).toThrow(
      expect.objectContaining({ code: "INVALID_INPUT", field: "batchApi" }),
    );
  });
});
