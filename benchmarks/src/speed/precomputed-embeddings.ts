/**
 * An EmbeddingProvider that answers from a table of vectors computed beforehand, so that the
 * speed suite measures the store and not a model: a lookup costs next to nothing.
 */
import type { EmbeddingProvider, EmbedOptions } from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";

export interface PrecomputedEmbeddings extends EmbeddingProvider {
  /** Registers (or replaces) the vector returned for `text`. */
  set(text: string, vector: Float32Array): void;
  /** How many texts have a vector. */
  readonly size: number;
  /** How many texts embed() was asked for, by purpose (to check what a run really called). */
  readonly calls: { query: number; document: number };
}

export interface PrecomputedEmbeddingsOptions {
  dimensions: number;
  /** Part of the store's fingerprint; change it and the store sets old vectors aside. */
  model?: string;
  entries?: Iterable<readonly [string, Float32Array]>;
}

export function createPrecomputedEmbeddings(options: PrecomputedEmbeddingsOptions): PrecomputedEmbeddings {
  const { dimensions } = options;
  const table = new Map<string, Float32Array>();
  const calls = { query: 0, document: 0 };

  function set(text: string, vector: Float32Array): void {
    if (vector.length !== dimensions) {
      throw MemoryError.invalidInput("vector", `expected ${dimensions} dimensions, got ${vector.length}`);
    }
    table.set(text, vector);
  }
  for (const [text, vector] of options.entries ?? []) set(text, vector);

  function lookup(texts: readonly string[]): Float32Array[] {
    return texts.map((text) => {
      const vector = table.get(text);
      // An unknown text is a bug in the benchmark's setup, never something to paper over with a
      // made-up vector that would quietly skew recall.
      if (vector === undefined) {
        throw new MemoryError("PROVIDER", `no precomputed vector for ${JSON.stringify(text.slice(0, 80))}`);
      }
      return vector;
    });
  }

  return {
    id: "precomputed",
    model: options.model ?? `synthetic-${dimensions}`,
    dimensions,
    maxBatchSize: 256,
    set,
    get size() {
      return table.size;
    },
    calls,
    embed(texts: readonly string[], embedOptions: EmbedOptions = {}): Promise<Float32Array[]> {
      const purpose = embedOptions.purpose ?? "document";
      calls[purpose] += texts.length;
      if (purpose === "query") {
        try {
          return Promise.resolve(lookup(texts));
        } catch (error) {
          return Promise.reject(error);
        }
      }
      // Document vectors arrive on a later turn of the event loop, as from a real (remote or
      // worker-thread) provider: a deferred store() must return before its vector is written.
      return new Promise((resolve, reject) => {
        setImmediate(() => {
          try {
            resolve(lookup(texts));
          } catch (error) {
            reject(error);
          }
        });
      });
    },
  };
}
