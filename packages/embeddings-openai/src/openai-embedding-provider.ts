// EmbeddingProvider for OpenAI, OpenRouter and any OpenAI-compatible /embeddings endpoint.
import type { EmbeddingProvider, EmbedOptions } from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";
import type OpenAI from "openai";
import { createConnection, type OpenAIConnectionSettings } from "./openai-connection.js";
import {
  DEFAULT_EMBEDDING_MODEL,
  type OpenAIEmbeddingModelId,
  resolveEmbeddingShape,
} from "./openai-embedding-models.js";
import { toMemoryError } from "./openai-error.js";

export interface OpenAIEmbeddingSettings extends OpenAIConnectionSettings {
  /** Default "text-embedding-3-small". */
  model?: OpenAIEmbeddingModelId;
  /** Required for models this package does not know; shortens text-embedding-3-* vectors. */
  dimensions?: number;
}

/** OpenAI's documented limits: inputs per request and tokens per input. */
const MAX_BATCH_SIZE = 2048;
const MAX_INPUT_TOKENS = 8191;

export function createEmbeddingProvider(settings: OpenAIEmbeddingSettings = {}): EmbeddingProvider {
  const connection = createConnection(settings);
  const model = settings.model ?? DEFAULT_EMBEDDING_MODEL;
  if (model.length === 0) throw MemoryError.invalidInput("model", "must not be empty");
  const { dimensions, sendDimensions } = resolveEmbeddingShape(
    model,
    settings.dimensions,
    connection.provider,
  );
  const id = connection.provider;
  const label = `${id} embeddings (${model})`;

  return {
    id,
    model,
    dimensions,
    maxBatchSize: MAX_BATCH_SIZE,
    maxInputTokens: MAX_INPUT_TOKENS,
    // `purpose` is accepted and ignored: OpenAI embeddings are symmetric and the API has no input_type.
    async embed(texts: readonly string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
      if (texts.length === 0) return [];
      if (texts.length > MAX_BATCH_SIZE) {
        throw MemoryError.invalidInput("texts", `at most ${MAX_BATCH_SIZE} per request, got ${texts.length}`);
      }
      options.signal?.throwIfAborted();
      const { client, apiKey } = connection.open();
      let response: OpenAI.CreateEmbeddingResponse;
      try {
        response = await client.embeddings.create(
          {
            model,
            input: [...texts],
            // Asked for explicitly: without it the SDK asks for base64 and decodes it itself.
            encoding_format: "float",
            ...(sendDimensions ? { dimensions } : {}),
          },
          { signal: options.signal },
        );
      } catch (error) {
        throw toMemoryError(error, { label, apiKey, signal: options.signal });
      }
      return toVectors(response, texts.length, dimensions, label);
    },
  };
}

export { createEmbeddingProvider as createOpenAIEmbeddings };

/** One vector per input in input order, whatever order and encoding the server chose. */
function toVectors(
  response: OpenAI.CreateEmbeddingResponse,
  count: number,
  dimensions: number,
  label: string,
): Float32Array[] {
  const data: unknown = response?.data;
  if (!Array.isArray(data) || data.length !== count) {
    const got = Array.isArray(data) ? data.length : "no";
    throw new MemoryError("PROVIDER", `${label}: expected ${count} embeddings, got ${got}`);
  }
  const vectors = new Array<Float32Array | undefined>(count);
  for (const item of data as { index?: unknown; embedding?: unknown }[]) {
    const index = item.index;
    if (typeof index !== "number" || !Number.isInteger(index) || index < 0 || index >= count) {
      throw new MemoryError("PROVIDER", `${label}: embedding index ${String(index)} out of range`);
    }
    if (vectors[index] !== undefined) {
      throw new MemoryError("PROVIDER", `${label}: embedding index ${index} answered twice`);
    }
    const vector = decodeEmbedding(item.embedding, label);
    if (vector.length !== dimensions) {
      throw new MemoryError(
        "PROVIDER",
        `${label}: embedding ${index} has ${vector.length} dimensions, expected ${dimensions}`,
      );
    }
    vectors[index] = vector;
  }
  return vectors as Float32Array[];
}

function decodeEmbedding(value: unknown, label: string): Float32Array {
  if (Array.isArray(value) && value.every((x) => typeof x === "number")) return Float32Array.from(value);
  // Some servers (and proxies) answer base64 whatever was asked: little-endian float32s.
  if (typeof value === "string") {
    const bytes = Buffer.from(value, "base64");
    if (bytes.length % 4 !== 0) {
      throw new MemoryError("PROVIDER", `${label}: base64 embedding of ${bytes.length} bytes is not float32`);
    }
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const vector = new Float32Array(bytes.length / 4);
    for (let i = 0; i < vector.length; i++) vector[i] = view.getFloat32(i * 4, true);
    return vector;
  }
  throw new MemoryError("PROVIDER", `${label}: embedding is neither a number array nor base64`);
}
