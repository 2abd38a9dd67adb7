/**
 * Word tokenisation shared by the full-text index, query building, keyword fallback and similarity.
 * CJK text has no spaces between words, so CJK runs are kept whole here and turned into
 * overlapping bigrams where an index needs word-like units.
 */

export { isStopWord, STOP_WORDS } from "./stop-words.js";

const CJK_SCRIPT = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]$/u;

// Script=Common code points that only ever occur inside kana words: the prolonged sound mark ー
// (full and half width) and the voiced sound marks (combining, and the half-width forms that NFKC
// turns into them). Without them "ラーメン" or "ｶﾞ" would be cut in the middle of a word.
const KANA_MARKS = new Set([0x30fc, 0xff70, 0x3099, 0x309a, 0xff9e, 0xff9f]);

/** The characters isCjkChar accepts, as the body of a `u`-flag regex character class, for code that
 *  looks for them with one regex rather than character by character. */
export const CJK_CHAR_CLASS = `\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}${[
  ...KANA_MARKS,
]
  .map((cp) => `\\u{${cp.toString(16)}}`)
  .join("")}`;

// One native scan: a loop calling isCjkChar per character was ~8% of a bulk import.
const ANY_CJK = new RegExp(`[${CJK_CHAR_CLASS}]`, "u");

const LETTER_OR_NUMBER = /^[\p{L}\p{N}]$/u;
const MARK = /^\p{M}$/u;
const WHITESPACE = /^\s$/u;

/** True when `ch` is a single code point of Han (incl. extensions), Hiragana, Katakana or Hangul. */
export function isCjkChar(ch: string): boolean {
  const cp = ch.codePointAt(0);
  if (cp === undefined || ch.length > (cp > 0xffff ? 2 : 1)) return false;
  return KANA_MARKS.has(cp) || CJK_SCRIPT.test(ch);
}

/** True when `text` contains at least one CJK character. */
export function containsCjk(text: string): boolean {
  return ANY_CJK.test(text);
}

/**
 * Lazily yields the tokens of `text` (NFKC, lower case): runs of letters/numbers, with an apostrophe
 * kept when it sits between two letters ("don't"), and whole CJK runs as separate tokens.
 * Lazy so that query builders can stop early on huge inputs.
 */
export function* iterateWords(text: string): Generator<string> {
  // Typographic apostrophes are normalised so "don’t" and "don't" are the same token.
  const normalized = text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/\u2019/g, "'");
  // A token is a contiguous run of the text, so it is sliced out rather than built by appending.
  let start = -1;
  let currentIsCjk = false;
  for (let i = 0; i < normalized.length; ) {
    const at = i;
    const kind = charKindAt(normalized, at);
    i += (normalized.codePointAt(at) as number) > 0xffff ? 2 : 1;
    if (kind === CJK) {
      if (start >= 0 && !currentIsCjk) {
        yield normalized.slice(start, at);
        start = -1;
      }
      if (start < 0) start = at;
      currentIsCjk = true;
    } else if (kind === WORD) {
      if (start >= 0 && currentIsCjk) {
        yield normalized.slice(start, at);
        start = -1;
      }
      if (start < 0) start = at;
      currentIsCjk = false;
    } else if (kind === MARK_KIND && start >= 0 && !currentIsCjk) {
      // A combining mark belongs to the letter before it. After CJK it splits, as it does in
      // toFtsIndexText, so query bigrams and index bigrams stay the same.
    } else if (kind === APOSTROPHE && start >= 0 && !currentIsCjk && charKindAt(normalized, i) === WORD) {
      // An apostrophe between two letters stays in the word ("don't").
    } else if (start >= 0) {
      yield normalized.slice(start, at);
      start = -1;
    }
  }
  if (start >= 0) yield normalized.slice(start);
}

const OTHER = 0;
const CJK = 1;
const WORD = 2;
const MARK_KIND = 3;
const APOSTROPHE = 4;

/** What the code point at `index` is to the tokeniser; OTHER past the end. ASCII needs no regex. */
function charKindAt(text: string, index: number): number {
  const cp = text.codePointAt(index);
  if (cp === undefined) return OTHER;
  if (cp < 0x80) {
    if ((cp >= 0x61 && cp <= 0x7a) || (cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a)) return WORD;
    return cp === 0x27 ? APOSTROPHE : OTHER;
  }
  const ch = text.slice(index, index + (cp > 0xffff ? 2 : 1));
  if (isCjkChar(ch)) return CJK;
  if (LETTER_OR_NUMBER.test(ch)) return WORD;
  return MARK.test(ch) ? MARK_KIND : OTHER;
}

/** All tokens of `text`; see iterateWords for the rules. */
export function tokenizeWords(text: string): string[] {
  return Array.from(iterateWords(text));
}

/** Overlapping bigrams of a CJK run, by code point; a one-character run yields itself. */
export function cjkBigrams(run: string): string[] {
  const chars = Array.from(run);
  if (chars.length <= 1) return chars.length === 1 ? [run] : [];
  const bigrams: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) {
    bigrams.push(`${chars[i]}${chars[i + 1]}`);
  }
  return bigrams;
}

/**
 * Text to store in the FTS5 index for `content`, or null when it has no CJK and the content can be
 * indexed as is. FTS5's unicode61 tokenizer would index a whole CJK sentence as one token, so each
 * CJK run is replaced by its space-separated bigrams, which buildFtsQuery searches as a phrase.
 */
export function toFtsIndexText(content: string): string | null {
  if (!containsCjk(content)) return null;
  const parts: string[] = [];
  let run = "";
  // Whether the text emitted so far ends in whitespace; tracked rather than re-read from the
  // output, which would make long documents quadratic.
  let endsInSpace = true;
  for (const ch of content) {
    if (isCjkChar(ch)) {
      run += ch;
      continue;
    }
    const isSpace = WHITESPACE.test(ch);
    if (run !== "") {
      parts.push(bigramText(run, endsInSpace, isSpace));
      run = "";
    }
    parts.push(ch);
    endsInSpace = isSpace;
  }
  if (run !== "") parts.push(bigramText(run, endsInSpace, true));
  return parts.join("");
}

/** A CJK run as space-separated bigrams, padded with a space where it touches other text. */
function bigramText(run: string, afterSpace: boolean, beforeSpace: boolean): string {
  // Same normalisation as the query side, so half-width kana and compatibility ideographs match.
  const bigrams = cjkBigrams(run.normalize("NFKC")).join(" ");
  return `${afterSpace ? "" : " "}${bigrams}${beforeSpace ? "" : " "}`;
}
