import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { EmbeddingProvider } from "@claw/memory-api";
import { isMemoryError } from "@claw/memory-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmbeddingProvider, createOnnxEmbeddings } from "./index.js";
import { embeddingRow, writeTinyModel } from "./test-support/build-tiny-model.js";

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  return dot;
}

function norm(vector: Float32Array): number {
  return Math.sqrt(cosine(vector, vector));
}

/** The masked mean of the table rows of these tokens, L2-normalised: what mean pooling must give. */
function expectedMean(tokens: string[]): number[] {
  const sum = new Array<number>(8).fill(0);
  for (const token of tokens) {
    for (const [i, value] of embeddingRow(token).entries()) sum[i]! += value / tokens.length;
  }
  const length = Math.sqrt(sum.reduce((acc, value) => acc + value * value, 0));
  return sum.map((value) => value / length);
}

function expectVector(actual: Float32Array | undefined, expected: readonly number[]): void {
  expect(actual).toBeDefined();
  expect(actual!.length).toBe(expected.length);
  for (const [i, value] of expected.entries()) expect(actual![i]).toBeCloseTo(value, 5);
}

let workspaceDir: string;
let provider: EmbeddingProvider;
const opened: EmbeddingProvider[] = [];

async function open(settings: Parameters<typeof createEmbeddingProvider>[0]): Promise<EmbeddingProvider> {
  const created = await createEmbeddingProvider({ workspaceDir, ...settings });
  opened.push(created);
  return created;
}

beforeAll(async () => {
  workspaceDir = await mkdtemp(join(tmpdir(), "claw-onnx-"));
  await writeTinyModel(workspaceDir, "tiny");
  provider = await open({ model: "tiny" });
});

afterAll(async () => {
  for (const created of opened) await created.close?.();
  await rm(workspaceDir, { recursive: true, force: true });
});

describe("local ONNX provider on a real tiny model", () => {
  it("describes itself from the model", () => {
    expect(provider.id).toBe("local");
    expect(provider.model).toBe("tiny");
    expect(provider.dimensions).toBe(8);
    expect(provider.maxBatchSize).toBe(32);
    expect(provider.maxInputTokens).toBe(512);
  });

  it("returns unit-length vectors of the hidden size", async () => {
    const vectors = await provider.embed(["the cat sat", "rain and wind", ""]);
    expect(vectors).toHaveLength(3);
    for (const vector of vectors) {
      expect(vector).toBeInstanceOf(Float32Array);
      expect(vector.length).toBe(8);
      expect(norm(vector)).toBeCloseTo(1, 5);
    }
    expect(await provider.embed([])).toEqual([]);
  });

  it("gives identical texts identical vectors", async () => {
    const [a, b] = await provider.embed(["The cat sat", "The cat sat"]);
    expect(Array.from(a!)).toEqual(Array.from(b!));
  });

  it("puts texts sharing words closer than unrelated ones", async () => {
    const [query, related, unrelated] = await provider.embed([
      "the cat sat",
      "cat sat mat",
      "rain wind cloud",
    ]);
    expect(cosine(query!, related!)).toBeGreaterThan(cosine(query!, unrelated!));
  });

  it("gives the same vectors batched (with padding) as one by one", async () => {
    const texts = ["cat", "the dog ran on the mat with the cat", "sun", "cold rain and wind cloud"];
    const batched = await provider.embed(texts);
    const small = await open({ model: "tiny", maxBatchSize: 2 });
    const inPairs = await small.embed(texts);
    for (const [i, text] of texts.entries()) {
      const [single] = await provider.embed([text]);
      expectVector(batched[i], Array.from(single!));
      expectVector(inPairs[i], Array.from(single!));
    }
  });

  it("mean-pools over the real tokens, as config.json asks", async () => {
    const [cat, cats] = await provider.embed(["cat", "Cats"]);
    expectVector(cat, expectedMean(["[CLS]", "cat", "[SEP]"]));
    expect(cat![0]).toBeCloseTo(1 / Math.sqrt(3), 5);
    expectVector(cats, expectedMean(["[CLS]", "cat", "##s", "[SEP]"]));
  });

  it("CLS-pools when the settings say so: the [CLS] row of the table", async () => {
    const cls = await open({ model: "tiny", pooling: "cls" });
    const [cat, rain] = await cls.embed(["cat", "rain"]);
    expectVector(cat, [1, 0, 0, 0, 0, 0, 0, 0]);
    expectVector(rain, [1, 0, 0, 0, 0, 0, 0, 0]);
  });

  it("reads the pooling from config.json", async () => {
    await writeTinyModel(workspaceDir, "tiny-cls", { pooling: "cls" });
    const [vector] = await (await open({ model: "tiny-cls" })).embed(["dog"]);
    expectVector(vector, [1, 0, 0, 0, 0, 0, 0, 0]);
  });

  it("truncates to maxInputTokens, keeping [CLS] and [SEP]", async () => {
    const short = await open({ model: "tiny", maxInputTokens: 4 });
    const [cut, prefix] = await short.embed(["cat dog sat mat ran", "cat dog"]);
    expectVector(cut, expectedMean(["[CLS]", "cat", "dog", "[SEP]"]));
    expectVector(cut, Array.from(prefix!));
  });

  it("feeds token_type_ids when the model has that input", async () => {
    await writeTinyModel(workspaceDir, "tiny-bert", { tokenTypeIds: true });
    const [vector] = await (await open({ model: "tiny-bert" })).embed(["cat"]);
    expectVector(vector, expectedMean(["[CLS]", "cat", "[SEP]"]));
  });

  it("takes an already pooled sentence_embedding output as it is", async () => {
    await writeTinyModel(workspaceDir, "tiny-pooled", { pooledOutput: true });
    const pooled = await open({ model: "tiny-pooled" });
    expect(pooled.dimensions).toBe(8);
    const [vector] = await pooled.embed(["cat"]);
    expectVector(vector, expectedMean(["[CLS]", "cat", "[SEP]"]));
  });

  it("measures the dimensions when the output shape does not declare them", async () => {
    await writeTinyModel(workspaceDir, "tiny-symbolic", { symbolicHidden: true });
    expect((await open({ model: "tiny-symbolic" })).dimensions).toBe(8);
  });

  it("accepts matching dimensions and refuses others with INVALID_INPUT", async () => {
    expect((await open({ model: "tiny", dimensions: 8 })).dimensions).toBe(8);
    const error = await createOnnxEmbeddings({ workspaceDir, model: "tiny", dimensions: 768 }).catch(
      (e) => e,
    );
    expect(isMemoryError(error, "INVALID_INPUT")).toBe(true);
    expect((error as { field?: string }).field).toBe("dimensions");
  });

  it("refuses an unknown model that is not installed, naming the model", async () => {
    const error = await createEmbeddingProvider({ workspaceDir, model: "nowhere" }).catch((e) => e);
    expect(isMemoryError(error, "INVALID_INPUT")).toBe(true);
    expect(String(error.message)).toContain("nowhere");
    const bad = await createEmbeddingProvider({ workspaceDir, model: "../escape" }).catch((e) => e);
    expect(isMemoryError(bad, "INVALID_INPUT")).toBe(true);
  });

  it("honours an aborted signal and refuses to embed after close()", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(provider.embed(["cat"], { signal: controller.signal })).rejects.toThrow();
    const closing = await open({ model: "tiny" });
    await closing.close?.();
    const error = await closing.embed(["cat"]).catch((e) => e);
    expect(isMemoryError(error, "UNAVAILABLE")).toBe(true);
  });
});
