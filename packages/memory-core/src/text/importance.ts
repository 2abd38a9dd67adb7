import type { MemoryCategory } from "@claw/memory-api";
import { CJK_CHAR_CLASS } from "./tokenizer.js";

const BASE_IMPORTANCE: Readonly<Record<string, number>> = {
  core: 0.7,
  daily: 0.3,
  conversation: 0.2,
};

/** Custom categories were chosen on purpose by the caller, so they start above chatter. */
const CUSTOM_CATEGORY_IMPORTANCE = 0.4;

/** Words that mark a memory as a rule or a decision rather than an observation. */
export const HIGH_SIGNAL_WORDS: ReadonlySet<string> = new Set([
  "decision",
  "always",
  "never",
  "important",
  "critical",
  "must",
  "requirement",
  "policy",
  "rule",
  "principle",
]);

const BOOST_PER_WORD = 0.1;
const MAX_BOOST = 0.2;

// "Whole word" means a whole token as iterateWords (tokenizer.ts) cuts them, matched with one
// regex instead of walking the text character by character (that walk was ~12% of a bulk import).
// A token is a run of non-CJK letters and numbers that also takes the combining marks after it and
// an apostrophe between two of its letters ("rule's" is one token); CJK characters (incl. the kana
// marks), "_", "-" and everything else end it. importance.test.ts checks the two agree.
const WORD_CHAR = String.raw`(?:(?![${CJK_CHAR_CLASS}])[\p{L}\p{N}])`;
const JOINING_MARK = String.raw`(?:(?![${CJK_CHAR_CLASS}])\p{M})`;
const SIGNAL_WORD = new RegExp(
  `(?<!${WORD_CHAR}${JOINING_MARK}*'?)(${[...HIGH_SIGNAL_WORDS].join("|")})(?!${JOINING_MARK}|'?${WORD_CHAR})`,
  "gu",
);

/** Any of the words anywhere: without one, the whole-word search (costly lookarounds) is skipped. */
const ANY_SIGNAL_WORD = new RegExp([...HIGH_SIGNAL_WORDS].join("|"));

/**
 * Text in ASCII only is its own NFKC form and holds no "’", and lower-casing it only folds A–Z: a
 * case-blind search of it tells what ANY_SIGNAL_WORD would of its normal form, without the three
 * copies of the text that normalising makes (~0.5 µs an entry of a bulk import, and their garbage).
 */
const NOT_ASCII = /[\u0080-\uffff]/;
const ANY_SIGNAL_WORD_ANY_CASE = new RegExp(ANY_SIGNAL_WORD.source, "i");

/**
 * A 0..1 importance for new content: a base per category plus 0.1 per distinct high-signal word
 * present as a whole word (case-insensitive), the boost capped at 0.2.
 */
export function scoreImportance(content: string, category: MemoryCategory): number {
  const base = Object.hasOwn(BASE_IMPORTANCE, category)
    ? (BASE_IMPORTANCE[category] as number)
    : CUSTOM_CATEGORY_IMPORTANCE;
  if (!NOT_ASCII.test(content) && !ANY_SIGNAL_WORD_ANY_CASE.test(content)) return roundScore(base);
  // The tokenizer's normalisation, so that e.g. full-width letters and "’" count as it does.
  const text = content
    .normalize("NFKC")
    .toLowerCase()
    .replace(/\u2019/g, "'");
  if (!ANY_SIGNAL_WORD.test(text)) return roundScore(base);
  const found = new Set<string>();
  SIGNAL_WORD.lastIndex = 0;
  for (let match = SIGNAL_WORD.exec(text); match !== null; match = SIGNAL_WORD.exec(text)) {
    found.add(match[1] as string);
    if (found.size * BOOST_PER_WORD >= MAX_BOOST) break;
  }
  const boost = Math.min(MAX_BOOST, found.size * BOOST_PER_WORD);
  return roundScore(Math.min(1, base + boost));
}

/** Six decimals, so 0.7 + 0.2 is exactly 0.9 and scores compare and serialise cleanly. */
function roundScore(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
