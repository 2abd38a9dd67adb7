import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { normalize, poolTokenStates } from "./pooling.js";
import { writeTinyModel } from "./test-support/build-tiny-model.js";
import { loadTextEncoder } from "./text-encoder.js";

let dir: string;
let workspaceDir: string;

beforeAll(async () => {
  workspaceDir = await mkdtemp(join(tmpdir(), "claw-onnx-tok-"));
  dir = await writeTinyModel(workspaceDir, "tiny");
});

afterAll(async () => {
  await rm(workspaceDir, { recursive: true, force: true });
});

describe("text encoder", () => {
  it("encodes with [CLS]/[SEP], lowercases and splits word pieces", async () => {
    const encoder = await loadTextEncoder({ tokenizerPath: join(dir, "tokenizer.json"), maxTokens: 512 });
    // [CLS]=2 the=9 cat=4 ##s=15 [SEP]=3
    expect(encoder.encode("The CATS")).toEqual([2, 9, 4, 15, 3]);
  });

  it("truncates inside the special tokens", async () => {
    const encoder = await loadTextEncoder({ tokenizerPath: join(dir, "tokenizer.json"), maxTokens: 3 });
    expect(encoder.encode("cat dog sat")).toEqual([2, 4, 3]);
  });

  it("pads a batch with [PAD] and masks the padding", async () => {
    const encoder = await loadTextEncoder({ tokenizerPath: join(dir, "tokenizer.json"), maxTokens: 512 });
    const batch = encoder.batch(["cat", "cat dog"]);
    expect([batch.rows, batch.columns]).toEqual([2, 4]);
    expect(Array.from(batch.inputIds)).toEqual([2n, 4n, 3n, 0n, 2n, 4n, 5n, 3n]);
    expect(Array.from(batch.attentionMask)).toEqual([1n, 1n, 1n, 0n, 1n, 1n, 1n, 1n]);
    expect(Array.from(batch.tokenTypeIds)).toEqual(new Array(8).fill(0n));
  });
});

describe("pooling", () => {
  it("averages only unmasked positions and leaves a zero vector alone", () => {
    const hidden = Float32Array.from([3, 0, 0, 4, 100, 100]);
    const [mean] = poolTokenStates(
      hidden,
      BigInt64Array.from([1n, 1n, 0n]),
      { rows: 1, columns: 3, dims: 2 },
      "mean",
    );
    expect(Array.from(mean!)).toEqual([0.6000000238418579, 0.800000011920929]);
    expect(Array.from(normalize(new Float32Array(2)))).toEqual([0, 0]);
  });
});
