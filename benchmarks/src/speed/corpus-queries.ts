/**
 * Query sets for the synthetic corpus, in two styles:
 *
 * - rare (the default, kept so existing figures stay comparable): 2–5 words, mostly of one target
 *   entry. Function words never reach the index, so these are mostly mid- and low-frequency terms
 *   with short posting lists: the kind case for a keyword index.
 * - typed: 3–5 distinct words as people type them, 1–2 from the target entry and the rest drawn
 *   from the corpus's whole content-word Zipf law, so the most common words of the store (the
 *   "user" and "project" of an agent's memory) are in most queries and their long posting lists
 *   must be ranked.
 */
import { seededRandom } from "../stats.js";
import { fillGaussian, mixSeed, normalizeInPlace } from "./corpus-random.js";
import type { Vocabulary } from "./vocabulary.js";

export type QueryStyle = "rare" | "typed";

export interface QueryOptions {
  /** Distinct salts give disjoint query sets (warm-up vs timed). */
  salt?: number;
  /** "rare" (default) or "typed"; see the file comment. */
  style?: QueryStyle;
  /** Length of the noise added to the target's vector when vectors are clustered. Default 0.35
   *  (cosine ≈ 0.94 to it). Vectors computed from words take the query's own words instead. */
  noise?: number;
}

/** One query: its text, its vector and the entry it was drawn from. */
export interface CorpusQuery {
  text: string;
  vector: Float32Array;
  target: number;
}

/** What a query set is drawn from: the parts of a corpus the generator needs. */
export interface QuerySource {
  readonly size: number;
  readonly dimensions: number;
  readonly seed: number;
  readonly vocabulary: Vocabulary;
  ranksAt(index: number): number[];
  vectorAt(index: number): Float32Array;
  /** The vector of a bag of words when vectors are computed from words (as by an embedder), null
   *  when they are clustered around topics (a query then perturbs its target's vector). */
  readonly embedRanks: ((ranks: readonly number[]) => Float32Array) | null;
}

const QUERY_STREAM = 4;

/** Unique query texts (the precomputed provider maps a text to exactly one vector). */
export function generateQueries(
  source: QuerySource,
  count: number,
  options: QueryOptions = {},
): CorpusQuery[] {
  const { size, dimensions, vocabulary } = source;
  const random = seededRandom(mixSeed(source.seed, options.salt ?? 0, QUERY_STREAM));
  const queryNoise = options.noise ?? 0.35;
  const pickWords = options.style === "typed" ? typedWords : rareWords;
  const seen = new Set<string>();
  const out: CorpusQuery[] = [];
  while (out.length < count) {
    const target = Math.floor(random() * size);
    const own = source.ranksAt(target).filter((r) => r >= vocabulary.firstContent);
    const ranks = pickWords(own, vocabulary, random);
    const text = ranks.map((r) => vocabulary.words[r] as string).join(" ");
    if (seen.has(text)) continue;
    seen.add(text);
    // Drawn whatever the vectors, so that a seed gives the same texts for every distribution.
    const perturbation = new Float32Array(dimensions);
    fillGaussian(perturbation, random, queryNoise / Math.sqrt(dimensions));
    let vector: Float32Array;
    if (source.embedRanks !== null) vector = source.embedRanks(ranks);
    else {
      vector = source.vectorAt(target);
      for (let d = 0; d < dimensions; d++) vector[d] = (vector[d] as number) + (perturbation[d] as number);
      normalizeInPlace(vector);
    }
    out.push({ text, vector, target });
  }
  return out;
}

/** 2–5 words, each from the target with chance 0.75 (a user recalling what was stored). */
function rareWords(own: readonly number[], vocabulary: Vocabulary, random: () => number): number[] {
  const wanted = 2 + Math.floor(random() * 4);
  const words = new Set<number>();
  for (let attempt = 0; words.size < wanted && attempt < 20; attempt++) {
    const fromTarget = own.length > 0 && random() < 0.75;
    words.add(
      fromTarget ? (own[Math.floor(random() * own.length)] as number) : vocabulary.sampleContentRank(random),
    );
  }
  return [...words];
}

/** 3–5 distinct words: 1–2 of the target's, the rest from the content-word Zipf law. */
function typedWords(own: readonly number[], vocabulary: Vocabulary, random: () => number): number[] {
  const wanted = 3 + Math.floor(random() * 3);
  const fromTarget = Math.min(new Set(own).size, 1 + Math.floor(random() * 2));
  const words = new Set<number>();
  for (let attempt = 0; words.size < fromTarget && attempt < 20; attempt++) {
    words.add(own[Math.floor(random() * own.length)] as number);
  }
  // Thousands of content words: 3–5 distinct draws take a handful of attempts.
  for (let attempt = 0; words.size < wanted && attempt < 100; attempt++) {
    words.add(vocabulary.sampleContentRank(random));
  }
  return [...words];
}
