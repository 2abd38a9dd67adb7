// EmbeddingProvider for OpenAI, OpenRouter and any OpenAI-compatible /embeddings endpoint.
import type { EmbeddingProvider, EmbedOptions } from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";
import { batchJobsSetting } from "@claw/provider-utils";
import type OpenAI from "openai";
import { createOpenAIBatchJobs } from "./openai-batch-jobs.js";
import { createConnection, type OpenAIConnectionSettings } from "./openai-connection.js";
import {
  DEFAULT_EMBEDDING_MODEL,
  type OpenAIEmbeddingModelId,
  resolveEmbeddingShape,
} from "./openai-embedding-models.js";
import { toVectors } from "./openai-embedding-vectors.js";
import { toMemoryError } from "./openai-error.js";

/** Settings of the OpenAI-compatible embedding provider (`provider = "openai"`, "openrouter" or "custom"). */
export interface OpenAIEmbeddingSettings extends OpenAIConnectionSettings {
  /** Default "text-embedding-3-small". */
  model?: OpenAIEmbeddingModelId;
  /** Required for models this package does not know; shortens text-embedding-3-* vectors. */
  dimensions?: number;
  /**
   * Offer OpenAI's Batch API as `batchJobs` (core uses it for large backfills when
   * `embedding_batch_api` is on). Default true for provider "openai"; OpenRouter and most
   * OpenAI-compatible servers have no Batch API, so set it for them only when yours has one.
   */
  batchApi?: boolean;
}

/** OpenAI's documented limits: inputs per request and tokens per input. */
const MAX_BATCH_SIZE = 2048;
const MAX_INPUT_TOKENS = 8191;

/**
 * Creates an embedding provider for OpenAI, OpenRouter or another OpenAI-compatible endpoint.
 * Throws INVALID_INPUT for bad settings; never calls the API (the key is read at each request).
 *
 * @example
 * ```ts
 * import { createEmbeddingProvider } from "@claw/embeddings-openai";
 * import { createMemory } from "@claw/memory-core";
 *
 * const embeddings = createEmbeddingProvider({ model: "text-embedding-3-small" }); // OPENAI_API_KEY
 * const memory = await createMemory({ workspaceDir: "./my-agent", embeddings });
 * ```
 */
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
  // OpenRouter and most OpenAI-compatible servers have no Batch API.
  const batchJobs = batchJobsSetting(settings.batchApi, connection.provider === "openai", () =>
    createOpenAIBatchJobs({ connection, model, dimensions, sendDimensions, label }),
  );

  return {
    id,
    model,
    dimensions,
    maxBatchSize: MAX_BATCH_SIZE,
    maxInputTokens: MAX_INPUT_TOKENS,
    ...batchJobs,
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
