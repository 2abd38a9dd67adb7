/**
 * Vectors computed from words, as a text embedder computes them from a text: the same function
 * embeds a corpus entry and a query, so a query's nearest entries are those sharing its words and
 * meaning, not a perturbed copy of one target. Two shapes of real embedders:
 *
 * - anisotropic: dense sentence embeddings. Their vectors share one dominant direction, so even
 *   unrelated texts sit at cosine ≈ 0.6 and sign bits carry less information than on isotropic
 *   clusters. Modelled as the mean of per-word Gaussian vectors plus one shared offset.
 * - sparse: bag-of-words embedders (feature hashing). Non-negative, mostly zero coordinates, and
 *   many exact ties between entries with the same word overlap.
 */
import { seededRandom } from "../stats.js";
import { dot, fillGaussian, mixSeed, normalizeInPlace } from "./corpus-random.js";
import type { Vocabulary } from "./vocabulary.js";

/** Embeds a bag of word ranks (indexes in the vocabulary, repeats counted) into a unit vector. */
export interface WordEmbedder {
  embed(ranks: readonly number[], out?: Float32Array): Float32Array;
}

export interface AnisotropicEmbedder extends WordEmbedder {
  /** Length of the shared offset added to every mean of word vectors. */
  readonly offsetScale: number;
}

export interface AnisotropicOptions {
  vocabulary: Vocabulary;
  dimensions: number;
  seed: number;
  /** Bags of words of unrelated entries, paired (0, 1), (2, 3), …: the offset is scaled on them. */
  calibration: ReadonlyArray<readonly number[]>;
  /** Mean cosine wanted between unrelated entries. Default 0.6, as measured on sentence models. */
  unrelatedCosine?: number;
}

const WORD_STREAM = 6;
const OFFSET_STREAM = 7;

export function createAnisotropicEmbedder(options: AnisotropicOptions): AnisotropicEmbedder {
  const { vocabulary, dimensions, seed } = options;
  const count = vocabulary.words.length;
  // ≈ 6 MB at 4000 words × 384 dims: a model's table, not a copy of the corpus.
  const table = new Float32Array(count * dimensions);
  for (let r = 0; r < count; r++) {
    const row = table.subarray(r * dimensions, (r + 1) * dimensions);
    // Each coordinate has variance 1/dimensions: word vectors of length ≈ 1, nearly orthogonal.
    fillGaussian(row, seededRandom(mixSeed(seed, r, WORD_STREAM)), 1 / Math.sqrt(dimensions));
  }
  const offset = new Float32Array(dimensions);
  fillGaussian(offset, seededRandom(mixSeed(seed, 0, OFFSET_STREAM)), 1);
  normalizeInPlace(offset);

  function meanOf(ranks: readonly number[], out: Float32Array): Float32Array {
    out.fill(0);
    for (const rank of ranks) {
      const base = rank * dimensions;
      for (let d = 0; d < dimensions; d++) out[d] = (out[d] as number) + (table[base + d] as number);
    }
    const inv = ranks.length === 0 ? 0 : 1 / ranks.length;
    for (let d = 0; d < dimensions; d++) out[d] = (out[d] as number) * inv;
    return out;
  }

  const offsetScale = calibrateOffset(
    options.calibration.map((ranks) => meanOf(ranks, new Float32Array(dimensions))),
    offset,
    options.unrelatedCosine ?? 0.6,
  );

  return {
    offsetScale,
    embed(ranks, out = new Float32Array(dimensions)) {
      meanOf(ranks, out);
      for (let d = 0; d < dimensions; d++) out[d] = (out[d] as number) + offsetScale * (offset[d] as number);
      return normalizeInPlace(out);
    },
  };
}

/**
 * The offset length s at which pairs of means (a, b) average cosine `target` once `s · offset` is
 * added to both. The mean cosine grows with s (towards 1), so bisection finds it; the dot products
 * are taken once, so each step costs O(pairs).
 */
function calibrateOffset(means: readonly Float32Array[], offset: Float32Array, target: number): number {
  const pairs: Array<{ aa: number; bb: number; ab: number; ao: number; bo: number }> = [];
  for (let i = 0; i + 1 < means.length; i += 2) {
    const a = means[i] as Float32Array;
    const b = means[i + 1] as Float32Array;
    pairs.push({ aa: dot(a, a), bb: dot(b, b), ab: dot(a, b), ao: dot(a, offset), bo: dot(b, offset) });
  }
  const meanCosine = (s: number) =>
    pairs.reduce((sum, p) => {
      const num = p.ab + s * (p.ao + p.bo) + s * s;
      const den = Math.sqrt((p.aa + 2 * s * p.ao + s * s) * (p.bb + 2 * s * p.bo + s * s));
      return sum + (den === 0 ? 0 : num / den);
    }, 0) / Math.max(1, pairs.length);
  if (pairs.length === 0 || meanCosine(0) >= target) return 0;
  let lo = 0;
  let hi = 1;
  while (meanCosine(hi) < target && hi < 1e6) hi *= 2;
  for (let step = 0; step < 60; step++) {
    const mid = (lo + hi) / 2;
    if (meanCosine(mid) < target) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

export interface SparseOptions {
  vocabulary: Vocabulary;
  dimensions: number;
  seed: number;
  /** 1 + ln(count) per bucket instead of the raw count, as most hashing embedders do. Default true. */
  sublinearTf?: boolean;
}

/** Feature hashing: each word adds to one bucket chosen by a hash of its text; no signs, no idf. */
export function createSparseEmbedder(options: SparseOptions): WordEmbedder {
  const { vocabulary, dimensions, seed } = options;
  const sublinear = options.sublinearTf ?? true;
  const buckets = Int32Array.from(vocabulary.words, (word) => fnv1a(word, seed) % dimensions);
  return {
    embed(ranks, out = new Float32Array(dimensions)) {
      out.fill(0);
      for (const rank of ranks) {
        const b = buckets[rank] as number;
        out[b] = (out[b] as number) + 1;
      }
      if (sublinear) {
        for (let d = 0; d < dimensions; d++) {
          const c = out[d] as number;
          if (c > 0) out[d] = 1 + Math.log(c);
        }
      }
      return normalizeInPlace(out);
    },
  };
}

/** FNV-1a over the UTF-16 code units, seeded: a stable word → bucket map for a given seed. */
function fnv1a(text: string, seed: number): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}
