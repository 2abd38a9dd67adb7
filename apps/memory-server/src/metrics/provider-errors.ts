// Counts failed embedding calls. Core degrades a failed query embedding to BM25 and retries
// document embeddings in the background, so the server sees those failures only by wrapping the
// provider it hands to createMemory.
import { type EmbeddingProvider, isMemoryError } from "@claw/memory-api";
import type { ModuleImporter } from "@claw/memory-core";
import type { Counter } from "./metrics-registry.js";

/** The same provider, counting each failed `embed` call in `counter{provider,code}`. */
export function countProviderErrors(provider: EmbeddingProvider, counter: Counter): EmbeddingProvider {
  const wrapped: EmbeddingProvider = {
    id: provider.id,
    model: provider.model,
    dimensions: provider.dimensions,
    ...(provider.maxBatchSize === undefined ? {} : { maxBatchSize: provider.maxBatchSize }),
    ...(provider.maxInputTokens === undefined ? {} : { maxInputTokens: provider.maxInputTokens }),
    ...(provider.batchJobs === undefined ? {} : { batchJobs: provider.batchJobs }),
    async embed(texts, options) {
      try {
        return await provider.embed(texts, options);
      } catch (error) {
        // An abort is the caller giving up (a timeout, a closing server), not the provider failing.
        const aborted = options?.signal?.aborted === true;
        if (!aborted) {
          counter.inc({ provider: provider.id, code: isMemoryError(error) ? error.code : "UNKNOWN" });
        }
        throw error;
      }
    },
  };
  if (provider.close !== undefined) wrapped.close = () => provider.close?.() ?? Promise.resolve();
  return wrapped;
}

interface ProviderModule {
  createEmbeddingProvider?: (
    options: Record<string, unknown>,
  ) => EmbeddingProvider | Promise<EmbeddingProvider>;
}

/**
 * An importer for createMemory's `importModule`: provider packages load as usual, and the
 * providers they create count their failures.
 */
export function countingImporter(importModule: ModuleImporter, counter: Counter): ModuleImporter {
  return async (specifier) => {
    const loaded = (await importModule(specifier)) as ProviderModule;
    const create = loaded?.createEmbeddingProvider;
    if (typeof create !== "function") return loaded;
    return {
      ...loaded,
      createEmbeddingProvider: async (options: Record<string, unknown>) =>
        countProviderErrors(await create(options), counter),
    };
  };
}
