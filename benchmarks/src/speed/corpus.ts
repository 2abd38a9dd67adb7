/**
 * A seeded synthetic corpus for the speed suite: sentences with a Zipf word distribution, unit
 * vectors clustered around topic centroids, and query sets drawn from the same distributions.
 * Every entry is generated from its own index-seeded PRNG, so any entry (or any chunk of vectors)
 * can be produced on demand without materialising the whole corpus.
 */
import { seededRandom } from "../stats.js";
import { createVocabulary, type Vocabulary } from "./vocabulary.js";

export interface CorpusOptions {
  size: number;
  dimensions: number;
  seed?: number;
  /** Topic centroids the vectors gather around. Default 64. */
  clusters?: number;
  /** Generated content words (function words come on top). Default 4000. */
  contentWords?: number;
  /** Length of the noise added to a unit centroid before normalising. Default 0.75, which puts an
   *  entry at cosine ≈ 0.8 from its centroid and ≈ 0.64 from its cluster mates. */
  noise?: number;
  /** Chance that a content word of an entry is one of its cluster's topic words. Default 0.2. */
  topicShare?: number;
}

export interface QueryOptions {
  /** Distinct salts give disjoint query sets (warm-up vs timed). */
  salt?: number;
  /** Length of the noise added to the target's vector. Default 0.35 (cosine ≈ 0.94 to it). */
  noise?: number;
}

/** One query: its text (2–5 words), its vector (a perturbed corpus vector) and the entry both came from. */
export interface CorpusQuery {
  text: string;
  vector: Float32Array;
  target: number;
}

export interface Corpus {
  readonly size: number;
  readonly dimensions: number;
  readonly seed: number;
  readonly clusters: number;
  readonly vocabulary: Vocabulary;
  clusterOf(index: number): number;
  centroid(cluster: number): Float32Array;
  /** The words of entry `index` (indexes beyond `size` are valid: extra entries for store()). */
  wordsAt(index: number): string[];
  sentenceAt(index: number): string;
  keyAt(index: number): string;
  /** The unit vector of entry `index`, written into `out` when given. */
  vectorAt(index: number, out?: Float32Array): Float32Array;
  /** Vectors `start .. start+count-1`, row-major in one array. */
  fillVectors(start: number, count: number): Float32Array;
  queries(count: number, options?: QueryOptions): CorpusQuery[];
}

const TEXT_STREAM = 1;
const VECTOR_STREAM = 2;
const CLUSTER_STREAM = 3;
const QUERY_STREAM = 4;
const CENTROID_STREAM = 5;
const TOPIC_WORDS_PER_CLUSTER = 16;

/** A 32-bit hash of (seed, index, stream) (murmur3's finaliser), so neighbouring indexes get
 *  unrelated PRNG streams. */
export function mixSeed(seed: number, index: number, stream: number): number {
  let h = (seed ^ Math.imul(index + 1, 0x9e3779b1) ^ Math.imul(stream, 0x85ebca77)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Fills `out` with normal draws of standard deviation `scale` (Box–Muller, two per pair of uniforms). */
function fillGaussian(out: Float32Array | Float64Array, random: () => number, scale: number): void {
  for (let d = 0; d < out.length; d += 2) {
    const r = Math.sqrt(-2 * Math.log(1 - random())) * scale;
    const angle = 2 * Math.PI * random();
    out[d] = r * Math.cos(angle);
    if (d + 1 < out.length) out[d + 1] = r * Math.sin(angle);
  }
}

export function normalizeInPlace(v: Float32Array): Float32Array {
  let sum = 0;
  for (let d = 0; d < v.length; d++) sum += (v[d] as number) ** 2;
  const inv = sum === 0 ? 0 : 1 / Math.sqrt(sum);
  for (let d = 0; d < v.length; d++) v[d] = (v[d] as number) * inv;
  return v;
}

export function createCorpus(options: CorpusOptions): Corpus {
  const { size, dimensions } = options;
  const seed = options.seed ?? 42;
  const clusters = options.clusters ?? 64;
  const noise = options.noise ?? 0.75;
  const topicShare = options.topicShare ?? 0.2;
  const vocabulary = createVocabulary(options.contentWords ?? 4000, seed);
  const contentCount = vocabulary.words.length - vocabulary.firstContent;

  const centroids = new Float32Array(clusters * dimensions);
  const topicWords: string[][] = [];
  for (let c = 0; c < clusters; c++) {
    const random = seededRandom(mixSeed(seed, c, CENTROID_STREAM));
    const row = centroids.subarray(c * dimensions, (c + 1) * dimensions);
    fillGaussian(row, random, 1);
    normalizeInPlace(row);
    // Mid-frequency words: specific enough to name a topic, common enough to recur in it.
    const words: string[] = [];
    for (let t = 0; t < TOPIC_WORDS_PER_CLUSTER; t++) {
      const rank = vocabulary.firstContent + 20 + Math.floor(random() * Math.min(1500, contentCount - 20));
      words.push(vocabulary.words[rank] as string);
    }
    topicWords.push(words);
  }

  const clusterOf = (index: number) =>
    Math.floor((mixSeed(seed, index, CLUSTER_STREAM) / 4294967296) * clusters);

  function wordsAt(index: number): string[] {
    const random = seededRandom(mixSeed(seed, index, TEXT_STREAM));
    const topics = topicWords[clusterOf(index)] as string[];
    // Skewed towards short notes: mean ≈ 20 words, range 8–40.
    const length = 8 + Math.floor(32.999 * random() ** 1.6);
    const words: string[] = [];
    for (let w = 0; w < length; w++) {
      const rank = vocabulary.sampleRank(random);
      const topical = rank >= vocabulary.firstContent && random() < topicShare;
      words.push(
        topical
          ? (topics[Math.floor(random() * topics.length)] as string)
          : (vocabulary.words[rank] as string),
      );
    }
    return words;
  }

  function sentenceAt(index: number): string {
    const words = wordsAt(index);
    const first = words[0] as string;
    words[0] = first.charAt(0).toUpperCase() + first.slice(1);
    return `${words.join(" ")}.`;
  }

  function vectorAt(index: number, out = new Float32Array(dimensions)): Float32Array {
    const random = seededRandom(mixSeed(seed, index, VECTOR_STREAM));
    // Noise of expected length `noise`: each coordinate has variance noise² / dimensions.
    fillGaussian(out, random, noise / Math.sqrt(dimensions));
    const base = clusterOf(index) * dimensions;
    for (let d = 0; d < dimensions; d++) out[d] = (out[d] as number) + (centroids[base + d] as number);
    return normalizeInPlace(out);
  }

  function fillVectors(start: number, count: number): Float32Array {
    const out = new Float32Array(count * dimensions);
    for (let j = 0; j < count; j++) vectorAt(start + j, out.subarray(j * dimensions, (j + 1) * dimensions));
    return out;
  }

  function queries(count: number, queryOptions: QueryOptions = {}): CorpusQuery[] {
    const random = seededRandom(mixSeed(seed, queryOptions.salt ?? 0, QUERY_STREAM));
    const queryNoise = queryOptions.noise ?? 0.35;
    const functionWords = new Set(vocabulary.words.slice(0, vocabulary.firstContent));
    const seen = new Set<string>();
    const out: CorpusQuery[] = [];
    while (out.length < count) {
      const target = Math.floor(random() * size);
      const own = wordsAt(target).filter((w) => !functionWords.has(w));
      const wanted = 2 + Math.floor(random() * 4);
      const words = new Set<string>();
      // Mostly words of the target (a user recalling what was stored), some from the corpus at large.
      for (let attempt = 0; words.size < wanted && attempt < 20; attempt++) {
        const fromTarget = own.length > 0 && random() < 0.75;
        words.add(
          fromTarget
            ? (own[Math.floor(random() * own.length)] as string)
            : (vocabulary.words[vocabulary.sampleContentRank(random)] as string),
        );
      }
      const text = [...words].join(" ");
      // Texts must be unique: the precomputed provider maps a text to exactly one vector.
      if (seen.has(text)) continue;
      seen.add(text);
      const vector = vectorAt(target);
      const perturbation = new Float32Array(dimensions);
      fillGaussian(perturbation, random, queryNoise / Math.sqrt(dimensions));
      for (let d = 0; d < dimensions; d++) vector[d] = (vector[d] as number) + (perturbation[d] as number);
      out.push({ text, vector: normalizeInPlace(vector), target });
    }
    return out;
  }

  return {
    size,
    dimensions,
    seed,
    clusters,
    vocabulary,
    clusterOf,
    centroid: (c) => centroids.subarray(c * dimensions, (c + 1) * dimensions),
    wordsAt,
    sentenceAt,
    keyAt: (index) => `m${index}`,
    vectorAt,
    fillVectors,
    queries,
  };
}
