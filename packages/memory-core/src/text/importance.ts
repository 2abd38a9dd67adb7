import type { MemoryCategory } from "@claw/memory-api";
import { iterateWords } from "./tokenizer.js";

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

/**
 * A 0..1 importance for new content: a base per category plus 0.1 per distinct high-signal word
 * present as a whole word (case-insensitive), the boost capped at 0.2.
 */
export function scoreImportance(content: string, category: MemoryCategory): number {
  const base = Object.hasOwn(BASE_IMPORTANCE, category)
    ? (BASE_IMPORTANCE[category] as number)
    : CUSTOM_CATEGORY_IMPORTANCE;
  const found = new Set<string>();
  // Whole tokens, not substrings: "rules", "mustard" and "neverland" are not signals.
  for (const token of iterateWords(content)) {
    if (HIGH_SIGNAL_WORDS.has(token)) {
      found.add(token);
      if (found.size * BOOST_PER_WORD >= MAX_BOOST) break;
    }
  }
  const boost = Math.min(MAX_BOOST, found.size * BOOST_PER_WORD);
  return roundScore(Math.min(1, base + boost));
}

/** Six decimals, so 0.7 + 0.2 is exactly 0.9 and scores compare and serialise cleanly. */
function roundScore(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
