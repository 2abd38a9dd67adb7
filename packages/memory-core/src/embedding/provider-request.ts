// One embedding request and the batching around it, shared by every store's embedding pipeline.
import type { EmbeddingProvider } from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";
import { raceAbort } from "./race-abort.js";

/** The rough size of a token, for budgeting requests without a tokenizer. */
export const CHARS_PER_TOKEN = 4;

/** Most characters one text may send: the provider's input limit, else the batch budget. */
export function maxInputChars(provider: EmbeddingProvider, batchTokens: number): number {
  return (provider.maxInputTokens ?? batchTokens) * CHARS_PER_TOKEN;
}

/** `text` cut to what the provider takes. */
export function clipText(text: string, maxChars: number): string {
  return text.length > maxChars ? text.slice(0, maxChars) : text;
}

/**
 * Consecutive batches of `items` of at most `maxCount` items and about `batchTokens` tokens each
 * (a text counts as its clipped length); a text over the budget goes alone.
 */
export function* tokenBudgetBatches<T extends { content: string }>(
  items: readonly T[],
  options: { maxCount: number; batchTokens: number; maxChars: number },
): Generator<T[]> {
  const maxCount = Math.max(1, options.maxCount);
  let batch: T[] = [];
  let tokens = 0;
  for (const item of items) {
    const cost = Math.ceil(Math.min(item.content.length, options.maxChars) / CHARS_PER_TOKEN);
    if (batch.length > 0 && (batch.length >= maxCount || tokens + cost > options.batchTokens)) {
      yield batch;
      batch = [];
      tokens = 0;
    }
    batch.push(item);
    tokens += cost;
  }
  if (batch.length > 0) yield batch;
}

/**
 * Calls the provider once, bounded by `timeoutMs` (TIMEOUT) even when it ignores its signal, and
 * checks the answer: one vector of the provider's dimensions per text (PROVIDER otherwise).
 */
export async function requestEmbeddings(
  provider: EmbeddingProvider,
  texts: string[],
  purpose: "query" | "document",
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<Float32Array[]> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
  let vectors: Float32Array[];
  try {
    vectors = await raceAbort(provider.embed(texts, { purpose, signal: combined }), combined);
  } catch (error) {
    if (timeout.aborted) {
      throw new MemoryError(
        "TIMEOUT",
        `embedding provider ${provider.id} did not answer within ${timeoutMs} ms`,
        { cause: error },
      );
    }
    throw error;
  }
  if (vectors.length !== texts.length) {
    throw new MemoryError(
      "PROVIDER",
      `embedding provider ${provider.id} returned ${vectors.length} vectors for ${texts.length} texts`,
    );
  }
  for (const vector of vectors) {
    if (vector.length !== provider.dimensions) {
      throw new MemoryError(
        "PROVIDER",
        `embedding provider ${provider.id} returned ${vector.length} dimensions, expected ${provider.dimensions}`,
      );
    }
  }
  return vectors;
}
