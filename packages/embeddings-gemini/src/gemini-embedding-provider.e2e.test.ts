import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHashingEmbeddingProvider, SqliteMemory } from "@claw/memory-core";
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
