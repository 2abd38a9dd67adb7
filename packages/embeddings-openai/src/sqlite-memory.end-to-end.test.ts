// The provider inside core's real store: deferred embedding, batching and embedding-only recall.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHashingEmbeddingProvider, SqliteMemory } from "@claw/memory-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmbeddingProvider } from "./index.js";
import { type FakeOpenAIServer, startFakeOpenAIServer } from "./test-support/fake-openai-server.js";

let fake: FakeOpenAIServer;
let dir: string;
beforeAll(async () => {
  fake = await startFakeOpenAIServer();
  // Vectors that carry meaning, computed server-side, so recall by embedding can find the right entry.
  const hashing = createHashingEmbeddingProvider({ dimensions: 64 });
  fake.setEmbedder((texts) => hashing.embed(texts));
  dir = await mkdtemp(join(tmpdir(), "claw-embeddings-openai-"));
});
afterAll(async () => {
  await fake.close();
  await rm(dir, { recursive: true, force: true });
});

describe("SqliteMemory with the OpenAI provider", () => {
  it("embeds a write of several entries in one request and recalls by embedding", async () => {
    const provider = createEmbeddingProvider({ apiKey: "sk-test", baseURL: fake.baseURL, dimensions: 64 });
    const memory = SqliteMemory.open({ path: join(dir, "brain.db"), embeddings: provider });
    try {
      // One multi-row write queues its entries together, so core hands them over as one batch.
      const imported = await memory.import([
        { key: "lang", content: "The user prefers TypeScript with strict compiler settings" },
        { key: "pet", content: "The user's dog is called Biscuit and loves long walks" },
        { key: "city", content: "The user lives in Lisbon near the river" },
      ]);
      expect(imported).toBe(3);
      await memory.flush();

      const documentRequests = fake.embeddingRequests();
      expect(documentRequests).toHaveLength(1);
      expect(documentRequests[0]?.body).toMatchObject({ model: "text-embedding-3-small", dimensions: 64 });
      expect(documentRequests[0]?.body.input).toHaveLength(3);
      expect((await memory.status()).pendingEmbeddings).toBe(0);

      const hits = await memory.recall("dog Biscuit walks", { mode: "embedding", limit: 1 });
      expect(hits.map((h) => h.key)).toEqual(["pet"]);
      expect(fake.embeddingRequests()).toHaveLength(2);
      expect(fake.embeddingRequests()[1]?.body.input).toEqual(["dog Biscuit walks"]);
    } finally {
      await memory.close();
    }
  });
});
