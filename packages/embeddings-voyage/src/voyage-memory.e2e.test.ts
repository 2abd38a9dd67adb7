import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHashingEmbeddingProvider, SqliteMemory } from "@claw/memory-core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeVoyageServer, startFakeVoyageServer } from "./test-support/fake-voyage-server.js";
import { createEmbeddingProvider } from "./voyage-embedding-provider.js";

let dir: string;
let server: FakeVoyageServer;
let memory: SqliteMemory | undefined;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "claw-voyage-"));
  // The fake computes real (hashing) vectors server-side, so recall has something to rank.
  const hashing = createHashingEmbeddingProvider({ dimensions: 64 });
  server = await startFakeVoyageServer({
    embed: async (texts) => (await hashing.embed(texts)).map((v) => Array.from(v)),
  });
});
afterEach(async () => {
  await memory?.close();
  memory = undefined;
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe("voyage provider inside SqliteMemory", () => {
  it("embeds stored entries as documents and recalls by embedding with query vectors", async () => {
    const provider = createEmbeddingProvider({
      apiKey: "e2e-key",
      baseURL: server.baseURL,
      model: "test-model",
      dimensions: 64,
    });
    memory = SqliteMemory.open({ path: join(dir, "brain.db"), embeddings: provider });
    await memory.store("lang", "The user prefers TypeScript for backend services");
    await memory.store("pet", "The user has a cat named Miso who likes sardines");
    await memory.store("city", "The user lives in Lisbon near the river");
    await memory.flush();

    const hits = await memory.recall("cat sardines", { mode: "embedding", withEmbeddings: true });
    expect(hits[0]?.key).toBe("pet");
    expect(hits[0]?.embedding?.length).toBe(64);

    const byType = (type: string) =>
      server.requests.filter((r) => r.body.input_type === type).flatMap((r) => r.body.input ?? []);
    expect(byType("document")).toEqual(
      expect.arrayContaining([
        "The user prefers TypeScript for backend services",
        "The user has a cat named Miso who likes sardines",
        "The user lives in Lisbon near the river",
      ]),
    );
    expect(byType("query")).toEqual(["cat sardines"]);
    expect(server.requests.every((r) => r.body.model === "test-model")).toBe(true);
    expect(server.requests.every((r) => r.headers.authorization === "Bearer e2e-key")).toBe(true);
    const status = await memory.status();
    expect(status.missingEmbeddings).toBe(0);
    expect(status.embedding).toEqual({ provider: "voyage", model: "test-model", dimensions: 64 });
  });
});
