import { isCjkChar } from "./tokenizer.js";

/**
 * A passage: this many consecutive words. Recall measures term coverage within an entry's best
 * passage (term-coverage.ts). 100 words is the passage length of dense-retrieval work; every
 * LoCoMo turn is shorter, so its figures did not move.
 */
export const PASSAGE_WORDS = 100;

// biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range starts at NUL.
const ASCII = /^[\x00-\x7f]*$/;

/** What separates words: anything but letters, digits and an apostrophe (kept inside "don't"). */
export const WORD_SEPARATORS = /[^\p{L}\p{N}']+/u;

/**
 * Whether `text` has more than `n` words (runs of letters, digits and apostrophes). ASCII text is
 * counted in one pass that stops at word n + 1; other text is split. `ascii` may be passed when known.
 */
export function moreWordsThan(text: string, n: number, ascii = ASCII.test(text)): boolean {
  // Every word but the last takes at least two characters.
  if (text.length < 2 * n) return false;
  if (!ascii) return text.split(WORD_SEPARATORS).filter((word) => word !== "").length > n;
  return asciiWords(text, n + 1) > n;
}

/** The words of ASCII `text`, counted in one pass that stops once `most` are found. */
function asciiWords(text: string, most: number): number {
  let words = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const isWord = (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 39;
    if (isWord && !inWord && ++words >= most) return words;
    inWord = isWord;
  }
  return words;
}

/**
 * How many words `text` has: runs of letters, digits and apostrophes, and each CJK character
 * apart (CJK text has no spaces; a Chinese word is one or two characters).
 */
export function wordCount(text: string, ascii = ASCII.test(text)): number {
  if (ascii) return asciiWords(text, Number.POSITIVE_INFINITY);
  let words = 0;
  for (const word of text.split(WORD_SEPARATORS)) {
    if (word === "") continue;
    let cjk = 0;
    for (const ch of word) if (isCjkChar(ch)) cjk++;
    // "数据库abc" is 3 CJK words and one more.
    words += cjk === 0 ? 1 : cjk + (cjk < Array.from(word).length ? 1 : 0);
  }
  return words;
}
