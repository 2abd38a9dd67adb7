// A hashing embedder whose query embeddings wait until released, so that a recall stays in flight
// for as long as a test needs (shutdown tests); document batches can take a set time.
import type { EmbeddingProvider } from "@claw/memory-api";
import { createHashingEmbeddingProvider } from "@claw/memory-core";

export interface HeldProvider {
  provider: EmbeddingProvider;
  /** Lets every waiting (and later) query embedding answer. */
  release: () => void;
  /** Resolves when the first query embedding has started. */
  queried: Promise<void>;
  /** The size of each document batch embedded. */
  documents: number[];
}

export function heldProvider(options: { documentDelayMs?: number } = {}): HeldProvider {
  const inner = createHashingEmbeddingProvider({ dimensions: 16 });
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let started: () => void = () => {};
  const queried = new Promise<void>((resolve) => {
    started = resolve;
  });
  const documents: number[] = [];
  const provider: EmbeddingProvider = {
    id: inner.id,
    model: inner.model,
    dimensions: inner.dimensions,
    async embed(texts, embedOptions) {
      if (embedOptions?.purpose === "query") {
        started();
        await released;
      } else {
        // A provider's latency, so that deferred batches are still running at shutdown.
        if (options.documentDelayMs)
          await new Promise((resolve) => setTimeout(resolve, options.documentDelayMs));
        documents.push(texts.length);
      }
      return inner.embed(texts, embedOptions);
    },
  };
  return { provider, release, queried, documents };
}
