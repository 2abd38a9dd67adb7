// Runs batches through an onnxruntime session and wraps it as an EmbeddingProvider.
import type { EmbeddingProvider, EmbedOptions } from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";
import { type InferenceSession, Tensor } from "onnxruntime-node";
import type { Pooling } from "./model-files.js";
import { poolTokenStates, splitPooled } from "./pooling.js";
import type { TextEncoder } from "./text-encoder.js";

// Token-level outputs are pooled here; the pooled ones come out of models exported with pooling inside.
const TOKEN_OUTPUTS = ["last_hidden_state", "token_embeddings"];
const POOLED_OUTPUTS = ["sentence_embedding", "pooler_output"];

export interface Runner {
  /** The output read from the model. */
  readonly output: string;
  /** One inference run over these texts (the caller bounds the batch size). */
  run(texts: readonly string[]): Promise<Float32Array[]>;
}

export function createRunner(session: InferenceSession, encoder: TextEncoder, pooling: Pooling): Runner {
  const names = session.outputNames;
  const found = [...TOKEN_OUTPUTS, ...POOLED_OUTPUTS].find((name) => names.includes(name)) ?? names[0];
  if (found === undefined) throw new MemoryError("UNAVAILABLE", "the ONNX model has no outputs");
  const output: string = found;
  const inputs = new Set(session.inputNames);
  for (const required of ["input_ids", "attention_mask"]) {
    if (!inputs.has(required)) {
      throw new MemoryError(
        "UNAVAILABLE",
        `the ONNX model has no ${required} input (inputs: ${session.inputNames.join(", ")})`,
      );
    }
  }

  async function run(texts: readonly string[]): Promise<Float32Array[]> {
    const batch = encoder.batch(texts);
    const dims = [batch.rows, batch.columns];
    const feeds: Record<string, Tensor> = {
      input_ids: new Tensor("int64", batch.inputIds, dims),
      attention_mask: new Tensor("int64", batch.attentionMask, dims),
    };
    if (inputs.has("token_type_ids")) feeds.token_type_ids = new Tensor("int64", batch.tokenTypeIds, dims);
    let result: Tensor | undefined;
    try {
      result = (await session.run(feeds, [output]))[output];
    } catch (error) {
      throw new MemoryError("PROVIDER", `ONNX inference failed: ${(error as Error).message}`, {
        cause: error,
      });
    }
    if (result === undefined || result.type !== "float32") {
      throw new MemoryError(
        "PROVIDER",
        `the model's ${output} output is ${result?.type ?? "missing"}, not float32`,
      );
    }
    const data = result.data as Float32Array;
    const shape = result.dims;
    if (shape.length === 3 && shape[0] === batch.rows && shape[1] === batch.columns) {
      const shape3 = { rows: batch.rows, columns: batch.columns, dims: shape[2]! };
      return poolTokenStates(data, batch.attentionMask, shape3, pooling);
    }
    if (shape.length === 2 && shape[0] === batch.rows) return splitPooled(data, batch.rows, shape[1]!);
    throw new MemoryError(
      "PROVIDER",
      `unexpected shape [${shape.join(", ")}] of the model's ${output} output`,
    );
  }

  return { output, run };
}

export class OnnxEmbeddingProvider implements EmbeddingProvider {
  readonly id = "local";
  private session: InferenceSession | null;

  constructor(
    readonly model: string,
    readonly dimensions: number,
    readonly maxBatchSize: number,
    readonly maxInputTokens: number,
    session: InferenceSession,
    private readonly runner: Runner,
  ) {
    this.session = session;
  }

  /** Query and document texts are embedded alike: the supported models use no prefixes. */
  async embed(texts: readonly string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
    if (!Array.isArray(texts) || texts.some((text) => typeof text !== "string")) {
      throw MemoryError.invalidInput("texts", "must be an array of strings");
    }
    const vectors: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += this.maxBatchSize) {
      options.signal?.throwIfAborted();
      if (this.session === null)
        throw new MemoryError("UNAVAILABLE", `local model "${this.model}" is closed`);
      const batch = await this.runner.run(texts.slice(start, start + this.maxBatchSize));
      for (const vector of batch) {
        if (vector.length !== this.dimensions) {
          throw new MemoryError(
            "PROVIDER",
            `the model returned ${vector.length} dimensions, not ${this.dimensions}`,
          );
        }
        vectors.push(vector);
      }
    }
    return vectors;
  }

  async close(): Promise<void> {
    const session = this.session;
    this.session = null;
    await session?.release();
  }
}
