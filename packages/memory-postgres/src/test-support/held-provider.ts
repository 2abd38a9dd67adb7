import type { EmbeddingProvider } from "@claw/memory-api";

/**
 * Wraps a provider so that its document requests wait until `release()`; `started` resolves at the
 * first one (the moment a deferred batch has claimed its rows and is waiting for vectors).
 */
export function heldProvider(inner: EmbeddingProvider) {
  const calls = { documents: 0, queries: 0 };
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let markStarted: () => void = () => {};
  const started = new Promise<void>((resolve) => {
    markStarted = resolve;
  });
  const provider: EmbeddingProvider = {
    id: inner.id,
    model: inner.model,
    dimensions: inner.dimensions,
    async embed(texts, options) {
      if (options?.purpose === "query") {
        calls.queries += texts.length;
      } else {
        calls.documents += texts.length;
        markStarted();
        await gate;
      }
      return inner.embed(texts, options);
    },
  };
  return { provider, calls, started, release };
}
