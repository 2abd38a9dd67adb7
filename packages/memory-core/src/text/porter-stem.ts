/**
 * The Porter (1980) stemmer exactly as SQLite's FTS5 `porter` tokenizer applies it, so that a
 * query word can be looked up in the index's vocabulary (fts5vocab) by the form FTS5 stored. Only
 * lower-case ASCII words are stemmed, and like FTS5 only those of 3 to 64 letters; anything else
 * is returned unchanged. porter-stem.sqlite.test.ts compares it with FTS5 on thousands of words.
 */

const MAX_TOKEN = 64;

/** FTS5's stem of `word`, or `word` itself when FTS5 leaves it alone. */
export function porterStem(word: string): string {
  if (word.length < 3 || word.length > MAX_TOKEN || !/^[a-z0-9]+$/.test(word)) return word;
  let w = step1a(word);
  const b = step1b(w);
  w = b.removed ? step1bTidy(b.word) : b.word;
  if (w.endsWith("y") && hasVowel(w, w.length - 1)) w = `${w.slice(0, -1)}i`;
  w = replaceSuffix(w, STEP2);
  w = replaceSuffix(w, STEP3);
  w = step4(w);
  if (w.endsWith("e")) {
    const stem = w.length - 1;
    const m = measure(w, stem);
    if (m > 1 || (m === 1 && !endsCvc(w, stem))) w = w.slice(0, stem);
  }
  if (w.length > 1 && w.endsWith("ll") && measure(w, w.length - 1) > 1) w = w.slice(0, -1);
  return w;
}

function step1a(w: string): string {
  if (!w.endsWith("s")) return w;
  // FTS5 matches a suffix only when something precedes it ("sses" alone loses one letter).
  if ((w.length > 4 && w.endsWith("sses")) || (w.length > 3 && w.endsWith("ies"))) return w.slice(0, -2);
  if (w.endsWith("ss")) return w;
  return w.slice(0, -1);
}

/**
 * Step 1b: -eed → -ee (measure > 0), or -ed/-ing removed when a vowel remains; `removed` says
 * whether the tidy-up (at → ate, doubled consonants, -e after a short stem) applies.
 */
function step1b(w: string): { word: string; removed: boolean } {
  if (w.length > 3 && w.endsWith("eed")) {
    return { word: measure(w, w.length - 3) > 0 ? w.slice(0, -1) : w, removed: false };
  }
  if (w.endsWith("ed") && hasVowel(w, w.length - 2)) return { word: w.slice(0, -2), removed: true };
  if (w.length > 3 && w.endsWith("ing") && hasVowel(w, w.length - 3))
    return { word: w.slice(0, -3), removed: true };
  return { word: w, removed: false };
}

function step1bTidy(w: string): string {
  for (const [suffix, replacement] of [
    ["at", "ate"],
    ["bl", "ble"],
    ["iz", "ize"],
  ] as const) {
    if (w.endsWith(suffix)) return w.slice(0, -suffix.length) + replacement;
  }
  const last = w.charAt(w.length - 1);
  if (
    w.length >= 2 &&
    last === w.charAt(w.length - 2) &&
    !isVowelAt(w, w.length - 1) &&
    last !== "l" &&
    last !== "s" &&
    last !== "z"
  ) {
    return w.slice(0, -1);
  }
  if (measure(w, w.length) === 1 && endsCvc(w, w.length)) return `${w}e`;
  return w;
}

const STEP2: ReadonlyArray<readonly [string, string]> = [
  ["ational", "ate"],
  ["tional", "tion"],
  ["enci", "ence"],
  ["anci", "ance"],
  ["izer", "ize"],
  ["logi", "log"],
  ["bli", "ble"],
  ["alli", "al"],
  ["entli", "ent"],
  ["eli", "e"],
  ["ousli", "ous"],
  ["ization", "ize"],
  ["ation", "ate"],
  ["ator", "ate"],
  ["alism", "al"],
  ["iveness", "ive"],
  ["fulness", "ful"],
  ["ousness", "ous"],
  ["aliti", "al"],
  ["iviti", "ive"],
  ["biliti", "ble"],
];

const STEP3: ReadonlyArray<readonly [string, string]> = [
  ["icate", "ic"],
  ["ative", ""],
  ["alize", "al"],
  ["iciti", "ic"],
  ["ical", "ic"],
  ["ful", ""],
  ["ness", ""],
];

const STEP4 = [
  "al",
  "ance",
  "ence",
  "er",
  "ic",
  "able",
  "ible",
  "ant",
  "ement",
  "ment",
  "ent",
  "ion",
  "ou",
  "ism",
  "ate",
  "iti",
  "ous",
  "ive",
  "ize",
] as const;

/**
 * Replaces the longest listed suffix the word ends with when the rest measures more than
 * 0 (steps 2 and 3); a longest suffix whose condition fails stops the step (no shorter one is tried).
 */
function replaceSuffix(w: string, rules: ReadonlyArray<readonly [string, string]>): string {
  let best: readonly [string, string] | null = null;
  for (const rule of rules) {
    if (
      w.length > rule[0].length &&
      w.endsWith(rule[0]) &&
      (best === null || rule[0].length > best[0].length)
    )
      best = rule;
  }
  if (best === null) return w;
  const stem = w.length - best[0].length;
  return measure(w, stem) > 0 ? w.slice(0, stem) + best[1] : w;
}

function step4(w: string): string {
  let best: string | null = null;
  for (const suffix of STEP4) {
    if (w.length > suffix.length && w.endsWith(suffix) && (best === null || suffix.length > best.length))
      best = suffix;
  }
  if (best === null) return w;
  const stem = w.length - best.length;
  if (measure(w, stem) <= 1) return w;
  if (best === "ion") {
    const before = w.charAt(stem - 1);
    if (before !== "s" && before !== "t") return w;
  }
  return w.slice(0, stem);
}

/** A vowel: a e i o u, and y after a consonant. */
function isVowelAt(w: string, i: number): boolean {
  const c = w.charAt(i);
  if (c === "a" || c === "e" || c === "i" || c === "o" || c === "u") return true;
  return c === "y" && i > 0 && !isVowelAt(w, i - 1);
}

function hasVowel(w: string, end: number): boolean {
  for (let i = 0; i < end; i++) if (isVowelAt(w, i)) return true;
  return false;
}

/** Porter's m: the number of vowel-consonant sequences in w[0, end). */
function measure(w: string, end: number): number {
  let m = 0;
  let i = 0;
  while (i < end && !isVowelAt(w, i)) i++;
  while (i < end) {
    while (i < end && isVowelAt(w, i)) i++;
    if (i >= end) break;
    while (i < end && !isVowelAt(w, i)) i++;
    m++;
  }
  return m;
}

/** w[0, end) ends consonant-vowel-consonant, the last not w, x or y. */
function endsCvc(w: string, end: number): boolean {
  if (end < 3) return false;
  const last = w.charAt(end - 1);
  if (last === "w" || last === "x" || last === "y") return false;
  return !isVowelAt(w, end - 1) && isVowelAt(w, end - 2) && !isVowelAt(w, end - 3);
}
