/**
 * A seeded synthetic corpus for the speed suite: sentences with a Zipf word distribution, unit
 * vectors, and query sets drawn from the same distributions. Every entry is generated from its own
 * index-seeded PRNG, so any entry (or any chunk of vectors) can be produced on demand without
 * materialising the whole corpus.
 *
 * Text distributions: `stopwords` (default) puts English function words at the top Zipf ranks,
 * which the store drops as stop words, so indexed terms are mid- and low-frequency; `common` gives
 * the top ranks to content words, which then appear in most entries as in an agent's store.
 * Vector distributions: `clustered` (default) Gaussian clusters around topic centroids;
 * `anisotropic` and `sparse` computed from the entry's words (word-embedders.ts).
 */
import { seededRandom } from "../stats.js";
import { type CorpusQuery, generateQueries, type QueryOptions } from "./corpus-queries.js";
import { fillGaussian, mixSeed, normalizeInPlace } from "./corpus-random.js";
import { createVocabulary, type Vocabulary } from "./vocabulary.js";
import { createAnisotropicEmbedder, createSparseEmbedder, type WordEmbedder } from "./word-embedders.js";

export type { CorpusQuery, QueryOptions, QueryStyle } from "./corpus-queries.js";
export { mixSeed, normalizeInPlace } from "./corpus-random.js";

export type TextDistribution = "stopwords" | "common";
export type VectorDistribution = "clustered" | "anisotropic" | "sparse";

export interface CorpusOptions {
  size: number;
  dimensions: number;
  seed?: number;
  /** Topic centroids the vectors gather around. Default 64. */
  clusters?: number;
  /** Generated content words (below the function words in the `stopwords` text). Default 4000. */
  contentWords?: number;
  /** Length of the noise added to a unit centroid before normalising. Default 0.75, which puts an
   *  entry at cosine ≈ 0.8 from its centroid and ≈ 0.64 from its cluster mates. */
  noise?: number;
  /** Chance that a content word of an entry is one of its cluster's topic words. Default 0.2. */
  topicShare?: number;
  /** Which words take the top Zipf ranks. Default "stopwords". */
  text?: TextDistribution;
  /** How entry vectors are made. Default "clustered". */
  vectors?: VectorDistribution;
  /** `anisotropic`: the mean cosine of unrelated entries the shared offset is scaled to. Default 0.6. */
  unrelatedCosine?: number;
  /** `sparse`: 1 + ln(count) per bucket rather than the count. Default true. */
  sublinearTf?: boolean;
}

export interface Corpus {
  readonly size: number;
  readonly dimensions: number;
  readonly seed: number;
  readonly clusters: number;
  readonly text: TextDistribution;
  readonly vectors: VectorDistribution;
  readonly vocabulary: Vocabulary;
  clusterOf(index: number): number;
  centroid(cluster: number): Float32Array;
  /** The vocabulary ranks of entry `index`'s words, in order (repeats kept). */
  ranksAt(index: number): number[];
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
const CENTROID_STREAM = 5;
const TOPIC_WORDS_PER_CLUSTER = 16;
/** Entries whose words scale the anisotropic offset (pairs 0–1, 2–3, …): any index is an entry. */
const CALIBRATION_ENTRIES = 512;

export function createCorpus(options: CorpusOptions): Corpus {
  const { size, dimensions } = options;
  const seed = options.seed ?? 42;
  const clusters = options.clusters ?? 64;
  const noise = options.noise ?? 0.75;
  const topicShare = options.topicShare ?? 0.2;
  const text = options.text ?? "stopwords";
  const vectors = options.vectors ?? "clustered";
  const vocabulary = createVocabulary(options.contentWords ?? 4000, seed, {
    functionWords: text === "stopwords",
  });
  const contentCount = vocabulary.words.length - vocabulary.firstContent;

  // Centroids are drawn for every vector distribution: the topic words come from the same PRNG,
  // so the text of a seed is the same whatever the vectors.
  const centroids = new Float32Array(clusters * dimensions);
  const topicRanks: number[][] = [];
  for (let c = 0; c < clusters; c++) {
    const random = seededRandom(mixSeed(seed, c, CENTROID_STREAM));
    const row = centroids.subarray(c * dimensions, (c + 1) * dimensions);
    fillGaussian(row, random, 1);
    normalizeInPlace(row);
    // Mid-frequency words: specific enough to name a topic, common enough to recur in it.
    const ranks: number[] = [];
    for (let t = 0; t < TOPIC_WORDS_PER_CLUSTER; t++) {
      ranks.push(vocabulary.firstContent + 20 + Math.floor(random() * Math.min(1500, contentCount - 20)));
    }
    topicRanks.push(ranks);
  }

  const clusterOf = (index: number) =>
    Math.floor((mixSeed(seed, index, CLUSTER_STREAM) / 4294967296) * clusters);

  function ranksAt(index: number): number[] {
    const random = seededRandom(mixSeed(seed, index, TEXT_STREAM));
    const topics = topicRanks[clusterOf(index)] as number[];
    // Skewed towards short notes: mean ≈ 20 words, range 8–40.
    const length = 8 + Math.floor(32.999 * random() ** 1.6);
    const ranks: number[] = [];
    for (let w = 0; w < length; w++) {
      const rank = vocabulary.sampleRank(random);
      const topical = rank >= vocabulary.firstContent && random() < topicShare;
      ranks.push(topical ? (topics[Math.floor(random() * topics.length)] as number) : rank);
    }
    return ranks;
  }

  const wordsAt = (index: number): string[] => ranksAt(index).map((r) => vocabulary.words[r] as string);

  function sentenceAt(index: number): string {
    const words = wordsAt(index);
    const first = words[0] as string;
    words[0] = first.charAt(0).toUpperCase() + first.slice(1);
    return `${words.join(" ")}.`;
  }

  /** The words an embedder weighs: content words, or every word of an entry that has none. */
  const embeddedRanks = (ranks: readonly number[]): readonly number[] => {
    const content = ranks.filter((r) => r >= vocabulary.firstContent);
    return content.length > 0 ? content : ranks;
  };
  const embedder = createWordEmbedder(options, vectors, vocabulary, seed, (i) => embeddedRanks(ranksAt(i)));

  function vectorAt(index: number, out = new Float32Array(dimensions)): Float32Array {
    if (embedder !== null) return embedder.embed(embeddedRanks(ranksAt(index)), out);
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

  const corpus: Corpus = {
    size,
    dimensions,
    seed,
    clusters,
    text,
    vectors,
    vocabulary,
    clusterOf,
    centroid: (c) => centroids.subarray(c * dimensions, (c + 1) * dimensions),
    ranksAt,
    wordsAt,
    sentenceAt,
    keyAt: (index) => `m${index}`,
    vectorAt,
    fillVectors,
    queries: (count, queryOptions) =>
      generateQueries(
        { ...corpus, embedRanks: embedder === null ? null : (ranks) => embedder.embed(embeddedRanks(ranks)) },
        count,
        queryOptions,
      ),
  };
  return corpus;
}

/** The embedder of a word-derived vector distribution, or null for clustered vectors. */
function createWordEmbedder(
  options: CorpusOptions,
  vectors: VectorDistribution,
  vocabulary: Vocabulary,
  seed: number,
  entryRanks: (index: number) => readonly number[],
): WordEmbedder | null {
  const { dimensions } = options;
  if (vectors === "sparse") {
    return createSparseEmbedder({ vocabulary, dimensions, seed, sublinearTf: options.sublinearTf });
  }
  if (vectors !== "anisotropic") return null;
  return createAnisotropicEmbedder({
    vocabulary,
    dimensions,
    seed,
    calibration: Array.from({ length: CALIBRATION_ENTRIES }, (_, i) => entryRanks(i)),
    unrelatedCosine: options.unrelatedCosine,
  });
}
