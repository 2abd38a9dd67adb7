// Gemini embeddings (`models/{model}:batchEmbedContents`) as a claw-memory EmbeddingProvider.
import type { EmbeddingProvider, EmbedOptions } from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";
import { batchJobsSetting } from "@claw/provider-utils";
import type { EmbedContentResponse } from "@google/genai";
import { createGeminiBatchJobs } from "./gemini-batch-jobs.js";
import { createGeminiCall, type GeminiClientSettings, validateClientSettings } from "./gemini-client.js";
import { toVector } from "./gemini-vectors.js";

/** Settings of the Gemini embedding provider (`[embedding]` with `provider = "gemini"`). */
export interface GeminiEmbeddingSettings extends GeminiClientSettings {
  /** Default `gemini-embedding-001`. */
  model?: string;
  /** Sent as `outputDimensionality` when given; default the model's native size (3072 for gemini-embedding-001). */
  dimensions?: number;
  /** Offer the Gemini API's batch mode as `batchJobs` (core uses it for large backfills when `embedding_batch_api` is on). Default true. */
  batchApi?: boolean;
}

/** The embedding model used when `model` is not given. */
export const GEMINI_DEFAULT_EMBEDDING_MODEL = "gemini-embedding-001";
/** batchEmbedContents accepts at most 100 requests per call. */
export const GEMINI_MAX_BATCH_SIZE = 100;
/** The most tokens one input may hold; longer texts are clipped before they are sent. */
export const GEMINI_MAX_INPUT_TOKENS = 2048;

/** Native output sizes; a smaller `dimensions` truncates (Matryoshka) and needs re-normalising. */
const NATIVE_DIMENSIONS: Record<string, number> = {
  "gemini-embedding-001": 3072,
  "gemini-embedding-exp-03-07": 3072,
  "text-embedding-004": 768,
  "embedding-001": 768,
};

/**
 * Creates a Gemini embedding provider. Throws INVALID_INPUT for bad settings; never calls the API.
 * The package reads no environment: pass the key as `apiKey` (the apps pass GEMINI_API_KEY).
 *
 * @example
 * ```ts
 * import { createEmbeddingProvider } from "@claw/embeddings-gemini";
 * import { createMemory } from "@claw/memory-core";
 *
 * const embeddings = createEmbeddingProvider({ apiKey: process.env.GEMINI_API_KEY, dimensions: 768 });
 * const memory = await createMemory({ workspaceDir: "./my-agent", embeddings });
 * ```
 */
export function createEmbeddingProvider(settings: GeminiEmbeddingSettings = {}): EmbeddingProvider {
  validateClientSettings(settings);
  const model = settings.model ?? GEMINI_DEFAULT_EMBEDDING_MODEL;
  if (model.trim() === "") throw MemoryError.invalidInput("model", "must not be empty");
  const native = NATIVE_DIMENSIONS[model.replace(/^models\//, "")];
  const requested = settings.dimensions;
  if (requested !== undefined && !(Number.isInteger(requested) && requested > 0)) {
    throw MemoryError.invalidInput("dimensions", `must be a positive integer, got ${requested}`);
  }
  if (requested !== undefined && native !== undefined && requested > native) {
    throw MemoryError.invalidInput("dimensions", `${model} produces at most ${native} dimensions`);
  }
  const size = requested ?? native;
  if (size === undefined) {
    throw MemoryError.invalidInput("dimensions", `required for model ${model} (its native size is unknown)`);
  }
  const dimensions: number = size;
  // Google documents only full-size vectors as normalised; truncated (or unknown) ones are normalised here.
  const normalise = requested !== undefined && (native === undefined || requested < native);
  const call = createGeminiCall(settings);
  const batchJobs = batchJobsSetting(settings.batchApi, true, () =>
    createGeminiBatchJobs({ call, model, requested, dimensions, normalise }),
  );

  async function embedBatch(batch: readonly string[], options: EmbedOptions): Promise<Float32Array[]> {
    const taskType = options.purpose === "query" ? "RETRIEVAL_QUERY" : "RETRIEVAL_DOCUMENT";
    const response = await call(options.signal, (client, httpOptions) =>
      client.models.embedContent({
        model,
        contents: [...batch],
        config: {
          taskType,
          ...(requested === undefined ? {} : { outputDimensionality: requested }),
          ...(options.signal === undefined ? {} : { abortSignal: options.signal }),
          httpOptions,
        },
      }),
    );
    return toVectors(response, batch.length, dimensions, normalise);
  }

  /** Core batches by maxBatchSize; splitting here keeps direct callers within the API's limit. */
  async function embed(texts: readonly string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
    const vectors: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += GEMINI_MAX_BATCH_SIZE) {
      vectors.push(...(await embedBatch(texts.slice(start, start + GEMINI_MAX_BATCH_SIZE), options)));
    }
    return vectors;
  }

  return {
    id: "gemini",
    model,
    dimensions,
    maxBatchSize: GEMINI_MAX_BATCH_SIZE,
    maxInputTokens: GEMINI_MAX_INPUT_TOKENS,
    ...batchJobs,
    embed,
  };
}

/** Alias named after the vendor, for code that imports several providers. */
export const createGeminiEmbeddings = createEmbeddingProvider;

function toVectors(
  response: EmbedContentResponse,
  expected: number,
  dimensions: number,
  normalise: boolean,
): Float32Array[] {
  const embeddings = response.embeddings ?? [];
  if (embeddings.length !== expected) {
    throw new MemoryError("PROVIDER", `gemini: expected ${expected} embeddings, got ${embeddings.length}`, {
      retryable: false,
    });
  }
  return embeddings.map((embedding, index) => toVector(embedding.values, index, dimensions, normalise));
}
