import type { ContradictionSignal } from "@claw/memory-api";

/** Boosts of seed 000, added up and then weighted ×0.3 in the total. */
export const SIGNAL_BOOST: Readonly<Record<ContradictionSignal, number>> = {
  negation: 0.4,
  preference: 0.3,
  temporal: 0.3,
};

/** The Jaccard overlap each signal needs before it counts (the preference signal needs none). */
export const SIGNAL_MIN_JACCARD: Readonly<Record<ContradictionSignal, number>> = {
  negation: 0.3,
  preference: 0,
  temporal: 0.2,
};

// Word lists are matched against whole tokens (and token sequences for phrases), so "no" never
// matches inside "know", nor "now" inside "known".
const NEGATION = phrases([
  "not",
  "no",
  "never",
  "none",
  "nobody",
  "nothing",
  "nor",
  "neither",
  "cannot",
  "without",
  "don't",
  "doesn't",
  "didn't",
  "isn't",
  "aren't",
  "wasn't",
  "weren't",
  "won't",
  "wouldn't",
  "can't",
  "couldn't",
  "shouldn't",
  "hasn't",
  "haven't",
  "hadn't",
  "no longer",
  "not anymore",
]);

const PREFERENCE = phrases([
  "prefer",
  "prefers",
  "preferred",
  "preference",
  "preferences",
  "like",
  "likes",
  "liked",
  "love",
  "loves",
  "loved",
  "favorite",
  "favourite",
  "favorites",
  "favourites",
  "enjoy",
  "enjoys",
  "enjoyed",
  "hate",
  "hates",
  "hated",
  "dislike",
  "dislikes",
  "disliked",
  "fan of",
  "rather",
]);

const ABSOLUTE = phrases(["always", "forever", "every time", "permanently", "all the time"]);

const TEMPORAL_SHIFT = phrases([
  "now",
  "nowadays",
  "recently",
  "lately",
  "switched",
  "switching",
  "changed",
  "moved",
  "anymore",
  "any more",
  "no longer",
  "these days",
  "from now on",
  "started",
  "starting",
  "currently",
  "instead",
]);

type Phrase = readonly string[];

function phrases(list: readonly string[]): readonly Phrase[] {
  return list.map((p) => p.split(" "));
}

function containsAny(tokens: readonly string[], list: readonly Phrase[]): boolean {
  for (let i = 0; i < tokens.length; i++) {
    for (const phrase of list) {
      if (phrase.every((word, j) => tokens[i + j] === word)) return true;
    }
  }
  return false;
}

/**
 * The contradiction signals between two memories (seed 000): a negation on one side only, a
 * preference stated on both sides with different content, an absolute claim on one side against a
 * change in time on the other. `tokens*` are the whole-word tokens of each side.
 */
export function contradictionSignals(
  tokensA: readonly string[],
  tokensB: readonly string[],
  jaccard: number,
  sameContent: boolean,
): ContradictionSignal[] {
  const signals: ContradictionSignal[] = [];
  const negA = containsAny(tokensA, NEGATION);
  const negB = containsAny(tokensB, NEGATION);
  if (negA !== negB && jaccard > SIGNAL_MIN_JACCARD.negation) signals.push("negation");
  if (!sameContent && containsAny(tokensA, PREFERENCE) && containsAny(tokensB, PREFERENCE)) {
    signals.push("preference");
  }
  const shift =
    (containsAny(tokensA, ABSOLUTE) && containsAny(tokensB, TEMPORAL_SHIFT)) ||
    (containsAny(tokensB, ABSOLUTE) && containsAny(tokensA, TEMPORAL_SHIFT));
  if (shift && jaccard > SIGNAL_MIN_JACCARD.temporal) signals.push("temporal");
  return signals;
}
