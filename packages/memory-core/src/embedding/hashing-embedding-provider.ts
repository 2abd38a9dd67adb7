import type { EmbeddingProvider, EmbedOptions } from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";
import { cjkBigrams, containsCjk, tokenizeWords } from "../text/tokenizer.js";

/** Options of the hashing provider (offline, deterministic vectors from word hashes; for tests and demos). */
export interface HashingEmbeddingOptions {
  /** Vector length; defaults to 256. */
  dimensions?: number;
  /** Provider id recorded with stored vectors; defaults to "hashing". */
  id?: string;
  /** Model name recorded with stored vectors; defaults to "hashing-v1". */
  model?: string;
}

export const HASHING_DEFAULT_DIMENSIONS = 256;
const HASHING_MAX_BATCH = 256;
/** Sub-word features are evidence of relatedness, but weaker than an exact shared word. */
const TRIGRAM_WEIGHT = 0.5;

/**
 * Deterministic, offline embedder using the "hashing trick": every token feature is hashed to
 * a bucket with a pseudo-random sign (so collisions cancel out on average instead of piling
 * up). Not semantic, but texts sharing words or word stems land close, which is all tests and
 * benchmarks need to exercise the vector path without a network or model download.
 */
export function createHashingEmbeddingProvider(options: HashingEmbeddingOptions = {}): EmbeddingProvider {
  const dimensions = options.dimensions ?? HASHING_DEFAULT_DIMENSIONS;
  if (!Number.isInteger(dimensions) || dimensions < 1) {
    throw MemoryError.invalidInput("dimensions", `must be an integer >= 1, got ${dimensions}`);
  }
  const id = options.id ?? "hashing";
  const model = options.model ?? "hashing-v1";
  if (id.length === 0) throw MemoryError.invalidInput("id", "must not be empty");
  if (model.length === 0) throw MemoryError.invalidInput("model", "must not be empty");

  return {
    id,
    model,
    dimensions,
    maxBatchSize: HASHING_MAX_BATCH,
    // Query and document purposes embed identically: the hashing space is symmetric.
    async embed(texts: readonly string[], embedOptions?: EmbedOptions): Promise<Float32Array[]> {
      embedOptions?.signal?.throwIfAborted();
      return texts.map((text) => embedOne(text, dimensions));
    },
  };
}

function embedOne(text: string, dimensions: number): Float32Array {
  const v = new Float32Array(dimensions);
  const points: number[] = [];
  for (const token of hashingTokens(text)) {
    // Prefixes keep the word "run" and the trigram "run" as distinct features.
    addFeature(v, fnvText(WORD_PREFIX, token), 1);
    if (containsCjk(token)) continue;
    // Boundary-padded trigrams, so "run" and "running" share "<ru" and "run".
    points.length = 0;
    points.push(LEFT_PAD);
    for (let i = 0; i < token.length; i++) {
      const point = token.codePointAt(i) as number;
      points.push(point);
      if (point > 0xffff) i++;
    }
    points.push(RIGHT_PAD);
    for (let i = 0; i + 2 < points.length; i++) {
      let hash = fnvPoint(GRAM_PREFIX, points[i] as number);
      hash = fnvPoint(hash, points[i + 1] as number);
      addFeature(v, fnvPoint(hash, points[i + 2] as number) >>> 0, TRIGRAM_WEIGHT);
    }
  }
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += (v[i] as number) ** 2;
  if (sum === 0) return v;
  const inv = 1 / Math.sqrt(sum);
  for (let i = 0; i < v.length; i++) v[i] = (v[i] as number) * inv;
  return v;
}

function addFeature(v: Float32Array, hash: number, weight: number): void {
  const bucket = hash % v.length;
  // The sign comes from a remixed hash so it stays independent of the bits choosing the bucket.
  const sign = (mix32(hash) & 1) === 0 ? 1 : -1;
  v[bucket] = (v[bucket] as number) + sign * weight;
}

/**
 * Lowercased words from the shared tokeniser (the same rules the keyword index uses); CJK runs
 * have no spaces, so they become overlapping character bigrams (a lone character stays itself).
 */
export function hashingTokens(text: string): string[] {
  const tokens: string[] = [];
  for (const word of tokenizeWords(text)) {
    if (containsCjk(word)) tokens.push(...cjkBigrams(word));
    else tokens.push(word);
  }
  return tokens;
}

const FNV_OFFSET = 0x811c9dc5;
const LEFT_PAD = 0x3c; // "<"
const RIGHT_PAD = 0x3e; // ">"

/**
 * FNV-1a, 32-bit, over UTF-8 bytes: tiny, fast and identical on every platform. The bytes are
 * those TextEncoder gives (a lone surrogate counts as U+FFFD), computed without encoding the text.
 */
export function fnv1a32(input: string): number {
  return fnvText(FNV_OFFSET, input);
}

/** The hash state after `text`'s bytes, from `hash` (unsigned). */
function fnvText(hash: number, text: string): number {
  let h = hash;
  for (let i = 0; i < text.length; i++) {
    const point = text.codePointAt(i) as number;
    h = fnvPoint(h, point);
    if (point > 0xffff) i++;
  }
  return h >>> 0;
}

/** The hash state after one code point's UTF-8 bytes (signed; `>>> 0` makes it the hash). */
function fnvPoint(hash: number, codePoint: number): number {
  const point = codePoint >= 0xd800 && codePoint <= 0xdfff ? 0xfffd : codePoint;
  if (point < 0x80) return Math.imul(hash ^ point, 0x01000193);
  let h = hash;
  if (point < 0x800) {
    h = Math.imul(h ^ (0xc0 | (point >> 6)), 0x01000193);
  } else {
    if (point < 0x10000) {
      h = Math.imul(h ^ (0xe0 | (point >> 12)), 0x01000193);
    } else {
      h = Math.imul(h ^ (0xf0 | (point >> 18)), 0x01000193);
      h = Math.imul(h ^ (0x80 | ((point >> 12) & 0x3f)), 0x01000193);
    }
    h = Math.imul(h ^ (0x80 | ((point >> 6) & 0x3f)), 0x01000193);
  }
  return Math.imul(h ^ (0x80 | (point & 0x3f)), 0x01000193);
}

const WORD_PREFIX = fnvText(FNV_OFFSET, "w:");
const GRAM_PREFIX = fnvText(FNV_OFFSET, "g:");

/** MurmurHash3's fmix32 finaliser. */
function mix32(h: number): number {
  let x = h;
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}
