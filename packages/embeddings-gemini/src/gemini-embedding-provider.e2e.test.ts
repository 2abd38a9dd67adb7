import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHashingEmbeddingProvider, DEFAULT_CONFIG, SqliteMemory } from "@claw/memory-core";
import { afterEach, beforeEach, expect, test } from "vitest";
import { createEmbeddingProvider } from "./index.js";
import { type FakeGeminiServer, startFakeGeminiServer } from "./test-support/fake-gemini-server.js";

let dir: string;
let server: FakeGeminiServer;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "claw-gemini-e2e-"));
  // The server embeds with core's hashing model, so similar texts get similar vectors end to end.
  const hashing = createHashingEmbeddingProvider({ dimensions: 64 });
  server = await startFakeGeminiServer({
    embed: async ({ text }) => Array.from((await hashing.embed([text]))[0] ?? []),
  });
});

afterEach(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

test("SqliteMemory stores, embeds through Gemini and recalls by embedding", async () => {
  const provider = createEmbeddingProvider({ apiKey: "k", baseURL: server.url, dimensions: 64 });
  const memory = SqliteMemory.open({ path: join(dir, "brain.db"), embeddings: provider });
  try {
    await memory.store("pets", "The user has a golden retriever named Biscuit");
    await memory.store("editor", "Preferred editor is neovim with a dark theme");
    await memory.store("travel", "Flight to Lisbon departs on the third of May");
    await memory.flush();

    const found = await memory.recall("golden retriever dog", { mode: "embedding", limit: 1 });
    expect(found.map((entry) => entry.key)).toEqual(["pets"]);
    expect((await memory.status()).embedding).toEqual({
      provider: "gemini",
      model: "gemini-embedding-001",
      dimensions: 64,
    });

    const actions = server.requests.map((r) => r.action);
    expect(actions.every((action) => action === "batchEmbedContents")).toBe(true);
    const taskTypes = server.requests.flatMap((r) =>
      (r.body.requests as Array<{ taskType?: string }>).map((item) => item.taskType),
    );
    expect(taskTypes).toContain("RETRIEVAL_DOCUMENT");
    expect(taskTypes).toContain("RETRIEVAL_QUERY");
  } finally {
    await memory.close();
  }
});

test("SqliteMemory backfills through Gemini batch jobs (embedding_batch_api) and recalls by embedding", async () => {
  const path = join(dir, "brain.db");
  const seed = SqliteMemory.open({ path, embeddings: null });
  const contentOf = (i: number) => `entry ${i} records that project${i} ships in week ${i % 52}`;
  await seed.import(Array.from({ length: 1200 }, (_, i) => ({ key: `k${i}`, content: contentOf(i) })));
  await seed.close();
  const provider = createEmbeddingProvider({ apiKey: "k", baseURL: server.url, dimensions: 64 });
  const memory = SqliteMemory.open({
    path,
    embeddings: provider,
    settings: { ...DEFAULT_CONFIG.memory, embeddingBatchApi: true, embeddingBatchApiPollMs: 1 },
  });
  try {
    expect(await memory.backfillEmbeddings()).toBe(1200);

    const creates = server.requests.filter((r) => r.action === "asyncBatchEmbedContent");
    expect(creates.map((r) => requestCount(r.body))).toEqual([1000, 200]);
    expect(server.requests.filter((r) => r.action === "batchEmbedContents")).toHaveLength(0);
    expect((await memory.status()).missingEmbeddings).toBe(0);
    const found = await memory.recall("project777 ships", { mode: "embedding", limit: 1 });
    expect(found.map((entry) => entry.key)).toEqual(["k777"]);
  } finally {
    await memory.close();
  }
});

function requestCount(body: Record<string, unknown>): number {
  const batch = body.batch as { inputConfig: { requests: { requests: unknown[] } } };
  return batch.inputConfig.requests.requests.length;
}
