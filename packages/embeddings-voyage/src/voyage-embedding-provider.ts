// createEmbeddingProvider for Voyage: one POST /v1/embeddings per embed() call, on the voyageai SDK.
import type { EmbeddingProvider, EmbedOptions } from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";
import { GeneratedVoyageAIClient } from "voyageai";
import { toMemoryError } from "./voyage-error.js";
import { DEFAULT_VOYAGE_MODEL, resolveModel, type VoyageEmbeddingModelId } from "./voyage-models.js";

/** The Voyage API's base URL, used when `baseUrl` is not given. */
export const DEFAULT_VOYAGE_BASE_URL = "https://api.voyageai.com/v1";
/** The per-request deadline used when `timeoutMs` is not given. */
export const DEFAULT_VOYAGE_TIMEOUT_MS = 60_000;
/** Voyage accepts up to 1000 inputs per request; core's token budget usually splits sooner. */
export const VOYAGE_MAX_BATCH_SIZE = 1000;
/** The most tokens one input may hold; longer texts are clipped before they are sent. */
export const VOYAGE_MAX_INPUT_TOKENS = 32_000;
/** Our own deadline fires first, so the SDK's (which it misreports, see embed()) never does. */
const SDK_TIMEOUT_SLACK_MS = 5_000;

/** Settings of the Voyage embedding provider (`[embedding]` with `provider = "voyage"`). */
export interface VoyageEmbeddingSettings {
  /**
   * The API key, or a function returning it. Read on every request, never at creation, so a
   * rotated key is picked up. When absent or empty, VOYAGE_API_KEY from the environment is used.
   */
  apiKey?: string | (() => string | undefined);
  /** Default https://api.voyageai.com/v1. */
  baseURL?: string;
  /** Default voyage-3.5 (1024 dimensions). */
  model?: VoyageEmbeddingModelId;
  /** Vector size; required for models this package does not know. */
  dimensions?: number;
  /** Per-request deadline; default 60 000 ms. */
  timeoutMs?: number;
  /** SDK-level retries; default 0 because core retries with backoff once, for every provider. */
  maxRetries?: number;
  /** Extra headers on every request. */
  headers?: Record<string, string>;
  /** A fetch implementation for the SDK to use (proxies, instrumentation). */
  fetch?: typeof fetch;
}

/**
 * Creates a Voyage embedding provider. Throws INVALID_INPUT for bad settings; never calls the API.
 *
 * @example
 * ```ts
 * import { createEmbeddingProvider } from "@claw/embeddings-voyage";
 * import { createMemory } from "@claw/memory-core";
 *
 * const embeddings = createEmbeddingProvider({ model: "voyage-3.5" }); // VOYAGE_API_KEY
 * const memory = await createMemory({ workspaceDir: "./my-agent", embeddings });
 * ```
 */
export function createEmbeddingProvider(settings: VoyageEmbeddingSettings = {}): EmbeddingProvider {
  const model = settings.model ?? DEFAULT_VOYAGE_MODEL;
  if (typeof model !== "string" || model.trim().length === 0) {
    throw MemoryError.invalidInput("model", "must be a non-empty string");
  }
  const { dimensions, outputDimension } = resolveModel(model, settings.dimensions);
  const baseURL = checkBaseURL(settings.baseURL ?? DEFAULT_VOYAGE_BASE_URL);
  const timeoutMs = checkCount("timeoutMs", settings.timeoutMs ?? DEFAULT_VOYAGE_TIMEOUT_MS, 1);
  const maxRetries = checkCount("maxRetries", settings.maxRetries ?? 0, 0);
  const readKey = keyReader(settings.apiKey);

  async function embed(texts: readonly string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
    const { signal } = options;
    signal?.throwIfAborted();
    if (texts.length === 0) return [];
    const apiKey = readKey();
    // A client per call: the key is whatever readKey() returns now, and nothing caches it.
    const client = new GeneratedVoyageAIClient({
      apiKey,
      baseUrl: baseURL,
      maxRetries,
      timeoutInSeconds: (timeoutMs + SDK_TIMEOUT_SLACK_MS) / 1000,
      ...(settings.headers === undefined ? {} : { headers: settings.headers }),
      ...(settings.fetch === undefined ? {} : { fetch: settings.fetch }),
    });
    // The SDK's own timeout aborts fetch with a bare string, which it then reports as an unknown
    // error; our deadline lets us tell a timeout from a network failure by state, not by text.
    const deadline = AbortSignal.timeout(timeoutMs);
    const abortSignal = signal === undefined ? deadline : AbortSignal.any([signal, deadline]);
    let response: Awaited<ReturnType<GeneratedVoyageAIClient["embed"]>>;
    try {
      response = await client.embed(
        {
          input: [...texts],
          model,
          inputType: options.purpose ?? "document",
          ...(outputDimension === undefined ? {} : { outputDimension }),
        },
        { abortSignal, maxRetries },
      );
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      throw toMemoryError(error, { secrets: [apiKey], timedOut: deadline.aborted, timeoutMs });
    }
    return toVectors(response.data, texts.length, dimensions);
  }

  return {
    id: "voyage",
    model,
    dimensions,
    maxBatchSize: VOYAGE_MAX_BATCH_SIZE,
    maxInputTokens: VOYAGE_MAX_INPUT_TOKENS,
    embed,
  };
}

/** The same factory under a name that says which vendor it is, for direct imports. */
export const createVoyageEmbeddings = createEmbeddingProvider;

function keyReader(apiKey: VoyageEmbeddingSettings["apiKey"]): () => string {
  return () => {
    const value = typeof apiKey === "function" ? apiKey() : apiKey;
    // Only the apps read the environment: they pass VOYAGE_API_KEY in as `apiKey`.
    const key = value;
    if (key === undefined || key.length === 0) {
      throw new MemoryError(
        "PROVIDER_AUTH",
        "voyage: no API key: set VOYAGE_API_KEY (or providers.voyage.api_key, or the apiKey option)",
        { retryable: false },
      );
    }
    return key;
  };
}

/** Sorts by `index` (the API does not promise input order) and checks every vector's size. */
function toVectors(
  data: readonly { embedding?: number[]; index?: number }[] | undefined,
  count: number,
  dimensions: number,
): Float32Array[] {
  if (data === undefined || data.length !== count) {
    throw invalidResponse(`${data?.length ?? 0} embeddings for ${count} inputs`);
  }
  const out: (Float32Array | undefined)[] = new Array(count);
  data.forEach((item, position) => {
    const index = item.index ?? position;
    if (!Number.isInteger(index) || index < 0 || index >= count || out[index] !== undefined) {
      throw invalidResponse(`bad or repeated index ${String(item.index)}`);
    }
    const embedding = item.embedding;
    if (!Array.isArray(embedding) || embedding.length !== dimensions) {
      throw invalidResponse(
        `embedding ${index} has ${Array.isArray(embedding) ? embedding.length : 0} dimensions, expected ${dimensions}`,
      );
    }
    out[index] = Float32Array.from(embedding);
  });
  return out as Float32Array[];
}

function invalidResponse(detail: string): MemoryError {
  return new MemoryError("PROVIDER", `voyage: unexpected response: ${detail}`, { retryable: false });
}

function checkBaseURL(value: string): string {
  try {
    const url = new URL(value);
    if (url.protocol === "http:" || url.protocol === "https:") return value.replace(/\/+$/, "");
  } catch {
    // Reported below with the field name, like every other bad setting.
  }
  throw MemoryError.invalidInput("baseURL", `must be an http(s) URL such as ${DEFAULT_VOYAGE_BASE_URL}`);
}

function checkCount(field: string, value: number, min: number): number {
  if (!Number.isInteger(value) || value < min) {
    throw MemoryError.invalidInput(field, `must be an integer >= ${min}, got ${String(value)}`);
  }
  return value;
}
