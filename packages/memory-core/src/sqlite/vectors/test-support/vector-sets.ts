/**
 * Seeded vector sets on which raw sign bits fail: sparse non-negative vectors (feature hashing)
 * and sentence-embedding-like ones (averaged word vectors plus one shared offset, so unrelated
 * texts sit at cosine ≈ 0.6). Each comes with queries made the same way from 3–5 words.
 */
import type { EmbeddingProvider } from "@claw/memory-api";
import { mulberry32 } from "../random-rotation.js";

export interface VectorSet {
  dimensions: number;
  vectors: Float32Array[];
  queries: Float32Array[];
}

const VOCABULARY = 5000;
/** The most frequent words, left out of queries as function words are. */
const FUNCTION_WORDS = 50;

export function sparseSet(count: number, dimensions: number, queries: number, seed: number): VectorSet {
  const texts = wordTexts(count, queries, seed);
  const embed = (words: Int32Array) => {
    const v = new Float32Array(dimensions);
    for (const word of words) {
      const bucket = hash32(word) % dimensions;
      v[bucket] = (v[bucket] as number) + 1;
    }
    return normalize(v);
  };
  return { dimensions, vectors: texts.documents.map(embed), queries: texts.queries.map(embed) };
}

/** `offset`: length of the shared offset; 0.23 puts unrelated texts at cosine ≈ 0.6. */
export function anisotropicSet(
  count: number,
  dimensions: number,
  queries: number,
  seed: number,
  offset = 0.23,
): VectorSet {
  const random = mulberry32(seed);
  const words = Float32Array.from(
    { length: VOCABULARY * dimensions },
    () => gaussian(random) / Math.sqrt(dimensions),
  );
  const shared = normalize(Float32Array.from({ length: dimensions }, () => gaussian(random)));
  const texts = wordTexts(count, queries, seed + 1);
  const embed = (ids: Int32Array) => {
    const v = new Float32Array(dimensions);
    for (const id of ids)
      for (let i = 0; i < dimensions; i++) v[i] = (v[i] as number) + (words[id * dimensions + i] as number);
    for (let i = 0; i < dimensions; i++)
      v[i] = (v[i] as number) / ids.length + offset * (shared[i] as number);
    return normalize(v);
  };
  return { dimensions, vectors: texts.documents.map(embed), queries: texts.queries.map(embed) };
}

/** Share of the exact top k (ties at the k-th similarity count as found) among `found`. */
export function recallAtK(set: VectorSet, query: Float32Array, found: readonly number[], k: number): number {
  const similarities = set.vectors.map((v) => dot(v, query));
  const kth = [...similarities].sort((a, b) => b - a)[k - 1] as number;
  const hits = found.filter((index) => (similarities[index] as number) >= kth - 1e-6).length;
  return Math.min(k, hits) / k;
}

/** A provider answering from a table of texts → vectors. */
export function tableProvider(dimensions: number, table: Map<string, Float32Array>): EmbeddingProvider {
  return {
    id: "table",
    model: `table-${dimensions}`,
    dimensions,
    maxBatchSize: 256,
    async embed(texts) {
      return texts.map((text) => {
        const vector = table.get(text);
        if (vector === undefined) throw new Error(`no vector for ${text}`);
        return vector;
      });
    },
  };
}

/** Texts of 10–30 Zipf-distributed word ids; queries of 3–5 words, mostly from one text. */
function wordTexts(count: number, queries: number, seed: number) {
  const random = mulberry32(seed);
  const cumulative = new Float64Array(VOCABULARY);
  let total = 0;
  for (let rank = 0; rank < VOCABULARY; rank++) cumulative[rank] = total += 1 / (rank + 1);
  const zipf = () => {
    const u = random() * total;
    let lo = 0;
    let hi = VOCABULARY - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cumulative[mid] as number) < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const documents = Array.from({ length: count }, () =>
    Int32Array.from({ length: 10 + Math.floor(random() * 21) }, zipf),
  );
  const asked = Array.from({ length: queries }, () => {
    const own = [...(documents[Math.floor(random() * count)] as Int32Array)].filter(
      (w) => w >= FUNCTION_WORDS,
    );
    const wanted = 3 + Math.floor(random() * 3);
    const words = new Set<number>();
    for (let attempt = 0; words.size < wanted && attempt < 30; attempt++) {
      const word =
        own.length > 0 && random() < 0.75 ? (own[Math.floor(random() * own.length)] as number) : zipf();
      if (word >= FUNCTION_WORDS) words.add(word);
    }
    return Int32Array.from(words);
  });
  return { documents, queries: asked };
}

export function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] as number) * (b[i] as number);
  return sum;
}

function normalize(v: Float32Array): Float32Array {
  const length = Math.sqrt(dot(v, v));
  if (length > 0) for (let i = 0; i < v.length; i++) v[i] = (v[i] as number) / length;
  return v;
}

function hash32(x: number): number {
  let h = Math.imul(x ^ 0x9e3779b9, 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

function gaussian(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}
