/**
 * The synthetic corpus's words: English function words at the top ranks (as in real text, where
 * they are about half of all tokens and the query builder drops them) followed by a few thousand
 * generated content words, sampled with a Zipf law so a few terms are common and most are rare.
 * Without function words the content words take the top ranks themselves: the shape of an agent's
 * store, where a handful of words ("user", "project") are in most entries.
 */
import { seededRandom } from "../stats.js";

/** The most frequent English function words, most frequent first. All are core stop words, so a
 *  query made of corpus words behaves as a real one: these never reach the FTS expression. */
export const FUNCTION_WORDS: readonly string[] = words(
  `the of and to a in is that for it as was with be by on at this are from or an were which but
   have has had they you he she we their his her its our been would will can there into when what
   who about more some than them then these so other also after before because`,
);

const ONSETS = words("b br c ch cl d dr f fl g gr h j k l m n p pl pr qu r s sh sk sl sp st t th tr v w z");
const VOWELS = words("a e i o u ai ea io ou y");
// Empty strings weight the draw towards open syllables and bare stems.
const CODAS = ["", "", "", ...words("n r s t l m nd nt st ck x ng")];
const ENDINGS = ["", "", "", "", ...words("er ing ion ment ly ed al ity ous ive")];

function words(list: string): string[] {
  return list.split(/\s+/).filter((w) => w !== "");
}

function pick<T>(items: readonly T[], random: () => number): T {
  return items[Math.floor(random() * items.length)] as T;
}

/** `count` distinct pronounceable pseudo-words of 1–3 syllables plus an optional English ending. */
export function generateContentWords(count: number, seed: number): string[] {
  const random = seededRandom(seed ^ 0x5eed_0001);
  const taken = new Set<string>(FUNCTION_WORDS);
  const found: string[] = [];
  // Every (syllables × ending) space is far larger than `count`, so this loop ends quickly.
  while (found.length < count) {
    const syllables = 1 + Math.floor(random() * 3);
    let word = "";
    for (let s = 0; s < syllables; s++)
      word += pick(ONSETS, random) + pick(VOWELS, random) + pick(CODAS, random);
    word += pick(ENDINGS, random);
    if (word.length < 3 || taken.has(word)) continue;
    taken.add(word);
    found.push(word);
  }
  return found;
}

export interface VocabularyOptions {
  /** The Zipf exponent. Default 1. */
  exponent?: number;
  /** Function words at the top ranks (default), or content words from rank 1. */
  functionWords?: boolean;
}

export interface Vocabulary {
  /** Words in rank order: function words first (when there are any), then content words. */
  readonly words: readonly string[];
  /** Index in `words` of the first content word (0 without function words). */
  readonly firstContent: number;
  /** A word rank drawn from the Zipf law (0 = most frequent). */
  sampleRank(random: () => number): number;
  /** A content-word rank drawn from the Zipf law restricted to content words. */
  sampleContentRank(random: () => number): number;
}

/**
 * Zipf with exponent `exponent` over all ranks. Sampling is a binary search in the cumulative
 * distribution, so drawing a word costs O(log V) and the corpus can be generated lazily per entry.
 * The content words are the same with or without function words (same seed, same count).
 */
export function createVocabulary(
  contentWords: number,
  seed: number,
  options: VocabularyOptions = {},
): Vocabulary {
  const exponent = options.exponent ?? 1.0;
  const functionWords = (options.functionWords ?? true) ? FUNCTION_WORDS : [];
  const ranked = [...functionWords, ...generateContentWords(contentWords, seed)];
  const cumulative = new Float64Array(ranked.length);
  let total = 0;
  for (let r = 0; r < ranked.length; r++) {
    total += 1 / (r + 1) ** exponent;
    cumulative[r] = total;
  }
  const firstContent = functionWords.length;
  const contentStart = firstContent === 0 ? 0 : (cumulative[firstContent - 1] as number);

  function rankAt(target: number): number {
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((cumulative[mid] as number) < target) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  return {
    words: ranked,
    firstContent,
    sampleRank: (random) => rankAt(random() * total),
    sampleContentRank: (random) => rankAt(contentStart + random() * (total - contentStart)),
  };
}
