// What a statement claims, for matching opinions with evidence: its words and whether it negates.
import { isStopWord, tokenSet } from "@claw/memory-core";

const NEGATION_WORDS = new Set([
  "not",
  "no",
  "never",
  "neither",
  "nor",
  "nobody",
  "nothing",
  "without",
  "cannot",
]);
// Longest first, so 不再 ("no longer") counts once, not as 不 plus 再.
const CJK_NEGATIONS = ["不再", "没有", "不", "没", "别", "未", "无"];
const MENTION = /@[^\s,.;:!?，。；：！？、)）\]]+/gu;

export interface Claim {
  /** An odd number of negations: "does not prefer", "不再喜欢". */
  negated: boolean;
  /** Content words, lightly stemmed, without negations, stop words and entity mentions. */
  tokens: Set<string>;
}

/**
 * A deliberately simple reading: the same words with opposite negation is a contradiction, the
 * same words with the same negation a confirmation. Antonyms ("likes" / "dislikes") are not seen.
 */
export function claimOf(text: string): Claim {
  let negations = 0;
  let rest = text.replace(MENTION, " ");
  for (const marker of CJK_NEGATIONS) {
    const parts = rest.split(marker);
    negations += parts.length - 1;
    rest = parts.join(" ");
  }
  const tokens = new Set<string>();
  for (const token of tokenSet(rest)) {
    if (NEGATION_WORDS.has(token) || token.endsWith("n't")) {
      negations++;
      continue;
    }
    if (isStopWord(token)) continue;
    tokens.add(stem(token));
  }
  return { negated: negations % 2 === 1, tokens };
}

/** Light suffix stripping for Latin words ("prefers", "preferring" → "prefer"); others unchanged. */
function stem(token: string): string {
  if (!/^[a-z]+$/.test(token) || token.length <= 4) return token;
  if (token.endsWith("ies")) return `${token.slice(0, -3)}y`;
  if (token.endsWith("ing") && token.length > 6) return token.slice(0, -3);
  if (token.endsWith("ed") && token.length > 5) return token.slice(0, -2);
  if (token.endsWith("s") && !token.endsWith("ss")) return token.slice(0, -1);
  return token;
}
