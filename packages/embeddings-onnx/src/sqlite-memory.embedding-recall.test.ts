import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SqliteMemory } from "@claw/memory-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmbeddingProvider } from "./index.js";
import { writeTinyModel } from "./test-support/build-tiny-model.js";

let workspaceDir: string;

beforeAll(async () => {
  workspaceDir = await mkdtemp(join(tmpdir(), "claw-onnx-e2e-"));
  await writeTinyModel(workspaceDir, "tiny");
});

afterAll(async () => {
  await rm(workspaceDir, { recursive: true, force: true });
});

describe("SqliteMemory with the local ONNX provider", () => {
  it("embeds stored entries and ranks the one sharing the query's words first", async () => {
    const embeddings = await createEmbeddingProvider({ workspaceDir, model: "tiny" });
    const memory = SqliteMemory.open({
      path: join(workspaceDir, "brain.db"),
      embeddings,
      closeProvider: true,
    });
    try {
      await memory.store("weather", "cold rain and wind from the cloud");
      await memory.store("pets", "the cat sat on the mat");
      await memory.store("sun", "sun");
      await memory.flush();
      const status = await memory.status();
      expect(status.embedding).toEqual({ provider: "local", model: "tiny", dimensions: 8 });
      expect(status.missingEmbeddings).toBe(0);

      const hits = await memory.recall("cat sat", { mode: "embedding" });
      expect(hits[0]?.key).toBe("pets");
      // Vector ranking scores every entry (a keyword LIKE fallback would return "pets" alone).
      expect(hits.map((hit) => hit.key).sort()).toEqual(["pets", "sun", "weather"]);
      const weather = await memory.recall("rain cloud", { mode: "embedding" });
      expect(weather[0]?.key).toBe("weather");
    } finally {
      await memory.close();
    }
  });
});
