import type { EmbeddingProvider, EmbedOptions } from "@claw/memory-api";
import type { WordVectorMap } from "./word-vector-table.js";

export interface WordVectorProviderOptions {
  /** Provider id recorded with stored vectors; default "wordvec". */
  id?: string;
  /** Model name recorded with stored vectors; default "averaged-word-vectors". */
  model?: string;
}

/**
 * Value of every component for a text with no known word: cosine needs a direction, and a tiny
 * constant one puts every such text at the same place without pulling on real vectors' norms.
 */
export const EMPTY_TEXT_COMPONENT = 1e-6;

/** Lower-cased runs of letters and digits: "Caroline's LGBTQ group" → caroline, s, lgbtq, group. */
export function wordTokens(text: string): string[] {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== "");
}

/**
 * A weak but real semantic embedder: the mean of the vectors of the text's known words,
 * L2-normalised. No stop words are removed and no word is weighted, so frequent words pull every
 * text towards the same centre; that is the baseline a real model must beat.
 */
export function createWordVectorProvider(
  vectors: WordVectorMap,
  dimensions: number,
  options: WordVectorProviderOptions = {},
): EmbeddingProvider {
  if (!Number.isInteger(dimensions) || dimensions < 1) {
    throw new Error(`word vectors: dimensions must be an integer >= 1, got ${dimensions}`);
  }
  for (const [word, vector] of vectors) {
    if (vector.length !== dimensions) {
      throw new Error(`word vectors: "${word}" has ${vector.length} values, expected ${dimensions}`);
    }
  }
  return {
    id: options.id ?? "wordvec",
    model: options.model ?? "averaged-word-vectors",
    dimensions,
    maxBatchSize: 256,
    // Queries and documents are embedded alike: the space is symmetric.
    async embed(texts: readonly string[], embedOptions?: EmbedOptions): Promise<Float32Array[]> {
      embedOptions?.signal?.throwIfAborted();
      return texts.map((text) => averageOf(vectors, wordTokens(text), dimensions));
    },
  };
}

/** The normalised mean of the known words' vectors; the tiny constant vector when none is known. */
export function averageOf(
  vectors: WordVectorMap,
  words: readonly string[],
  dimensions: number,
): Float32Array {
  const sum = new Float64Array(dimensions);
  let known = 0;
  for (const word of words) {
    const vector = vectors.get(word);
    if (vector === undefined) continue;
    known += 1;
    for (let i = 0; i < dimensions; i++) sum[i] = (sum[i] as number) + (vector[i] as number);
  }
  let norm = 0;
  for (let i = 0; i < dimensions; i++) norm += (sum[i] as number) ** 2;
  norm = Math.sqrt(norm);
  const out = new Float32Array(dimensions);
  // The mean's direction is the sum's: normalising the sum is normalising the mean.
  if (known === 0 || norm === 0) return out.fill(EMPTY_TEXT_COMPONENT);
  for (let i = 0; i < dimensions; i++) out[i] = (sum[i] as number) / norm;
  return out;
}
