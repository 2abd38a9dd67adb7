import { dateContext, MONTHS, WEEKDAYS } from "../text/entry-context.js";
import { isCjkChar } from "../text/tokenizer.js";
import { moreWordsThan, PASSAGE_WORDS, WORD_SEPARATORS } from "../text/word-count.js";

/** Tuned on LoCoMo (dev): 0.75 keeps most of the MRR gain of a linear factor and more recall@10. */
const COVERAGE_EXPONENT = 0.75;

// biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range starts at NUL.
const ASCII = /^[\x00-\x7f]*$/;

interface Hit<R> {
  row: R;
  score: number;
}

/**
 * BM25 sums per-term scores, so one rare word repeated in a short entry can outrank an entry that
 * contains most of the question. Scaling by the share of distinct query terms present favours
 * entries that answer more of it. Best first, ties by rid.
 */
export function byCoverage<R extends { rid: number; key: string; content: string }>(
  hits: readonly Hit<R>[],
  terms: readonly string[],
): Hit<R>[] {
  if (terms.length < 2) return [...hits];
  const cover = coverageOf(terms);
  return hits
    .map((hit) => ({ row: hit.row, score: hit.score * cover(hit.row) ** COVERAGE_EXPONENT }))
    .sort((a, b) => b.score - a.score || a.row.rid - b.row.rid);
}

/**
 * The share of `terms` (query terms, lower case) present in one passage of an entry's key and
 * content (PASSAGE_WORDS consecutive words), as whole words compared by their stems ("running"
 * finds "runs", "art" does not find "start"), so a long entry gains nothing from words that merely
 * contain a term. CJK terms, which have no word boundaries, are found as substrings anywhere.
 */
export function termCoverage(row: CoveredRow, terms: readonly string[]): number {
  return coverageOf(terms)(row);
}

/** What coverage reads of a row: its words and, when known, when it was written (RFC 3339). */
export interface CoveredRow {
  key: string;
  content: string;
  created_at?: string;
}

/**
 * Whether the query names a date: a month or weekday name, or a year (19xx, 20xx). Its terms are
 * then also found in an entry's date, in the forms recall indexes it by (entry-context.ts: "2023-10-13
 * 13 October 2023 Friday"), so that "what did Audrey eat on October 24, 2023?" covers the turns of
 * that day, with its day number too. A number alone ("top 3 tips") is not a date. LoCoMo dev: the
 * 108 of 883 questions naming a date, keyword recall@10 0.765 → 0.796 and MRR 0.489 → 0.578 (stored
 * as conversation); the rest unchanged, as BEAM (whose questions name almost no dates).
 */
function namesADate(wanted: ReadonlyArray<{ cjk: string | null; stem: string }>): boolean {
  return wanted.some((w) => w.cjk === null && (DATE_NAME_STEMS.has(w.stem) || YEAR.test(w.stem)));
}

const DATE_NAME_STEMS = new Set([...MONTHS, ...WEEKDAYS].map((name) => stemUncached(name.toLowerCase())));
const YEAR = /^(?:19|20)\d\d$/;
const NO_STEMS: ReadonlySet<string> = new Set();

/** The stems of the words of a timestamp's date forms, kept per timestamp (entries share days). */
function dateStemsOf(timestamp: string): ReadonlySet<string> {
  let known = dateStems.get(timestamp);
  if (known === undefined) {
    if (dateStems.size >= DATE_STEMS_MAX) dateStems.clear();
    known = new Set(
      dateContext(timestamp)
        .toLowerCase()
        .split(WORD_SEPARATORS)
        .filter((word) => word !== "")
        .map(stemOf),
    );
    dateStems.set(timestamp, known);
  }
  return known;
}

const dateStems = new Map<string, ReadonlySet<string>>();
const DATE_STEMS_MAX = 4096;

/** The cover function of the last query: the keyword stage and the engine share its cache. */
let last: { key: string; cover: (row: CoveredRow) => number } | null = null;

/**
 * termCoverage with the terms' stems computed once, for scoring many rows against one query; each
 * row's coverage is kept while the same query's cover function is in use (the keyword stage and
 * the recall engine score the same rows).
 */
export function coverageOf(terms: readonly string[]): (row: CoveredRow) => number {
  const key = terms.join("\u0000");
  if (last !== null && last.key === key) return last.cover;
  const wanted = terms.map((term) =>
    Array.from(term).some(isCjkChar) ? { cjk: term, stem: "" } : { cjk: null, stem: stemOf(term) },
  );
  const dated = namesADate(wanted);
  // A word can only have a wanted stem if it starts with the same two letters (stemming changes
  // ends only): the other words are never stemmed.
  const starts = new Set(wanted.filter((w) => w.cjk === null).map((w) => w.stem.slice(0, 2)));
  const known = new WeakMap<object, number>();
  const cover = (row: CoveredRow): number => {
    if (wanted.length === 0) return 0;
    const cached = known.get(row);
    if (cached !== undefined) return cached;
    const inDate = dated && row.created_at !== undefined ? dateStemsOf(row.created_at) : NO_STEMS;
    const raw = `${row.key}\n${row.content}`;
    const ascii = ASCII.test(raw);
    // NFKC leaves ASCII unchanged; skipping it there saves most of the normalisation's time.
    const text = (ascii ? raw : raw.normalize("NFKC")).toLowerCase().replace(/\u2019/g, "'");
    let found = 0;
    if (ascii) {
      // ASCII text holds no CJK term.
      for (const w of wanted) {
        if (w.cjk === null && (inDate.has(w.stem) || hasAsciiWordWithStem(text, w.stem))) found++;
      }
    } else {
      const stems = new Set<string>();
      for (const word of text.split(WORD_SEPARATORS)) if (mayHaveStem(word, starts)) stems.add(stemOf(word));
      for (const w of wanted) {
        if (w.cjk !== null ? text.includes(w.cjk) : stems.has(w.stem) || inDate.has(w.stem)) found++;
      }
    }
    // A passage can hold no more terms than the whole, and a text of PASSAGE_WORDS words or fewer
    // is its own passage. Measured within a passage, a long answer or document no longer holds most
    // of a question's words by chance: BEAM dev (long user/assistant chats), keyword-only, with the
    // first-person query terms, 0.420 → 0.442 stored as conversation; LoCoMo unchanged.
    if (found > 1 && moreWordsThan(text, PASSAGE_WORDS, ascii)) {
      found = bestPassageFound(text, wanted, starts, inDate);
    }
    const coverage = found / wanted.length;
    known.set(row, coverage);
    return coverage;
  };
  last = { key, cover };
  return cover;
}

/**
 * Whether `word` can have one of the stems whose first two letters are `starts`: stemming changes
 * ends only, and cuts a word at its apostrophe ("i'm" → "i", whose start is "i").
 */
function mayHaveStem(word: string, starts: ReadonlySet<string>): boolean {
  const head = word.slice(0, 2);
  return starts.has(head) || (head.charCodeAt(1) === 39 && starts.has(head.charAt(0)));
}

/**
 * How many of `wanted` the best window of PASSAGE_WORDS words holds (CJK terms: anywhere; the
 * stems of the entry's date, `inDate`: always).
 */
function bestPassageFound(
  text: string,
  wanted: ReadonlyArray<{ cjk: string | null; stem: string }>,
  starts: ReadonlySet<string>,
  inDate: ReadonlySet<string>,
): number {
  let always = 0;
  const weight = new Map<string, number>();
  for (const w of wanted) {
    if (w.cjk !== null) {
      if (text.includes(w.cjk)) always++;
    } else if (inDate.has(w.stem)) always++;
    else weight.set(w.stem, (weight.get(w.stem) ?? 0) + 1);
  }
  const hits: Array<[number, string]> = [];
  let position = 0;
  for (const word of text.split(WORD_SEPARATORS)) {
    if (word === "") continue;
    if (mayHaveStem(word, starts)) {
      const stem = stemOf(word);
      if (weight.has(stem)) hits.push([position, stem]);
    }
    position++;
  }
  const counts = new Map<string, number>();
  let inWindow = 0;
  let best = 0;
  let from = 0;
  for (const [p, stem] of hits) {
    const c = counts.get(stem) ?? 0;
    if (c === 0) inWindow += weight.get(stem) ?? 0;
    counts.set(stem, c + 1);
    while (p - (hits[from] as [number, string])[0] >= PASSAGE_WORDS) {
      const old = (hits[from] as [number, string])[1];
      const left = (counts.get(old) ?? 0) - 1;
      counts.set(old, left);
      if (left === 0) inWindow -= weight.get(old) ?? 0;
      from++;
    }
    best = Math.max(best, inWindow);
  }
  return best + always;
}

/** a-z, 0-9 and the apostrophe, for lower-case ASCII text. */
function isAsciiWordChar(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 48 && code <= 57) || code === 39;
}

/**
 * Whether lower-case ASCII `text` has a word whose stem is `stem`. Only words that start with the
 * stem's first two letters are cut out and stemmed (stemming changes ends only), found by indexOf
 * rather than by splitting the whole text: most words of an entry are never looked at.
 */
function hasAsciiWordWithStem(text: string, stem: string): boolean {
  const start = stem.slice(0, 2);
  if (start === "") return false;
  for (let i = text.indexOf(start); i >= 0; i = text.indexOf(start, i + 1)) {
    if (i > 0 && isAsciiWordChar(text.charCodeAt(i - 1))) continue;
    let end = i + start.length;
    while (end < text.length && isAsciiWordChar(text.charCodeAt(end))) end++;
    if (stemOf(text.slice(i, end)) === stem) return true;
  }
  return false;
}

/**
 * A light English stemmer: plural, past, gerund and adverb endings, so that the forms a question
 * and an answer use of one word meet ("studies"/"study", "painted"/"painting"). Conservative:
 * words of four letters or fewer are kept whole, and a stem never gets shorter than three letters.
 */
export function stemOf(word: string): string {
  const known = stems.get(word);
  if (known !== undefined) return known;
  if (stems.size >= STEMS_MAX) stems.clear();
  const stem = stemUncached(word);
  stems.set(word, stem);
  return stem;
}

/** Stems of words seen: recall stems the same few thousand words over and over. */
const stems = new Map<string, string>();
const STEMS_MAX = 50_000;

function stemUncached(word: string): string {
  let w = word;
  const apostrophe = w.indexOf("'");
  if (apostrophe > 0) w = w.slice(0, apostrophe);
  if (w.length <= 3) return w;
  if (w.endsWith("ies") && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith("sses")) w = w.slice(0, -2);
  else if (/(?:ch|sh|x|z)es$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith("s") && !/(?:ss|us|is)$/.test(w)) w = w.slice(0, -1);
  for (const suffix of ["ingly", "edly", "ing", "ed", "ly"]) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 3) {
      w = w.slice(0, -suffix.length);
      // "running" → "runn" → "run"; "hopping" → "hop".
      const last = w.length - 1;
      if (w.length >= 4 && w[last] === w[last - 1] && !"lsz".includes(w[last] as string)) w = w.slice(0, -1);
      break;
    }
  }
  // "race"/"racing", "bake"/"baked", "study"/"studied" meet at "rac", "bak", "studi".
  if (w.length > 3 && w.endsWith("e")) w = w.slice(0, -1);
  if (w.length > 3 && w.endsWith("y")) w = `${w.slice(0, -1)}i`;
  return w;
}
