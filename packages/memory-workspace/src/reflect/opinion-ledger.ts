// Opinions and their confidence, replayed from the retained facts (seed 003's "opinion evolution").
import { jaccardSimilarity } from "@claw/memory-core";
import { entityKey } from "../retain/fact-format.js";
import { chronological } from "../retain/indexed-facts.js";
import type { RetainedFact } from "../workspace-types.js";
import { type Claim, claimOf } from "./claim-tokens.js";

/**
 * The confidence rule, in one place:
 * - an opinion starts at its stated `c` (0.5 when none is written);
 * - a supporting fact moves it a little toward 1: c += 0.1 × (1 − c);
 * - a contradicting fact moves it toward 0 by a step that grows only while contradictions repeat
 *   with no support in between: c −= step × c, step 0.1, then 0.25, then 0.5 from the third on;
 *   any support resets the streak.
 * So one stray contradiction costs 10 %, three in a row cost ~66 %, and no single fact can flip
 * an opinion. A fact is evidence for an opinion when they share an entity (or neither names one)
 * and their content words overlap (Jaccard ≥ 0.5); it supports when both negate or neither does.
 */
export const CONFIDENCE_RULE = Object.freeze({
  defaultConfidence: 0.5,
  supportStep: 0.1,
  contradictionSteps: Object.freeze([0.1, 0.25, 0.5]),
  matchThreshold: 0.5,
});

/** Whether a fact supports or contradicts an opinion. */
export type Stance = "supports" | "contradicts";

/** A fact that bears on an opinion, and the confidence after it. */
export interface Evidence {
  fact: RetainedFact;
  stance: Stance;
  /** Confidence after this fact. */
  confidence: number;
}

/** An opinion from the Retain sections, with the evidence for and against it. */
export interface Opinion {
  /** The key of the fact that first stated it. */
  id: string;
  statement: string;
  /** Entity names of the first statement. */
  entities: string[];
  statedConfidence: number;
  confidence: number;
  /** Date (YYYY-MM-DD) of the latest fact that bore on it. */
  lastUpdated: string;
  origin: RetainedFact;
  /** Later facts, oldest first. */
  evidence: Evidence[];
}

interface Tracked {
  opinion: Opinion;
  claim: Claim;
  entityKeys: Set<string>;
  streak: number;
}

/**
 * Every opinion the facts state, with its confidence after all evidence, in order of first statement.
 * `keyOf` decides when two entity names are the same entity (default entityKey; reflect() passes
 * one that resolves aliases).
 */
export function replayOpinions(
  facts: readonly RetainedFact[],
  keyOf: (name: string) => string = entityKey,
): Opinion[] {
  const tracked: Tracked[] = [];
  for (const fact of [...facts].sort(chronological)) {
    const claim = claimOf(fact.text);
    const keys = new Set(fact.entities.map((name) => keyOf(name)));
    const match = bestMatch(tracked, claim, keys);
    if (match !== undefined) {
      apply(match, fact, claim.negated === match.claim.negated ? "supports" : "contradicts");
    } else if (fact.kind === "opinion") {
      const confidence = fact.confidence ?? CONFIDENCE_RULE.defaultConfidence;
      tracked.push({
        opinion: {
          id: fact.key,
          statement: fact.text,
          entities: fact.entities,
          statedConfidence: confidence,
          confidence,
          lastUpdated: fact.date,
          origin: fact,
          evidence: [],
        },
        claim,
        entityKeys: keys,
        streak: 0,
      });
    }
  }
  return tracked.map((t) => t.opinion);
}

/** The most similar tracked opinion above the threshold; the earliest wins a tie. */
function bestMatch(
  tracked: readonly Tracked[],
  claim: Claim,
  keys: ReadonlySet<string>,
): Tracked | undefined {
  let best: Tracked | undefined;
  let bestScore: number = CONFIDENCE_RULE.matchThreshold;
  for (const candidate of tracked) {
    const related =
      keys.size === 0 ? candidate.entityKeys.size === 0 : [...keys].some((k) => candidate.entityKeys.has(k));
    if (!related) continue;
    const score = jaccardSimilarity(claim.tokens, candidate.claim.tokens);
    if (score > bestScore || (score === bestScore && best === undefined)) {
      best = candidate;
      bestScore = score;
    }
  }
  return best;
}

function apply(tracked: Tracked, fact: RetainedFact, stance: Stance): void {
  const opinion = tracked.opinion;
  let c = opinion.confidence;
  if (stance === "supports") {
    tracked.streak = 0;
    c += CONFIDENCE_RULE.supportStep * (1 - c);
  } else {
    tracked.streak++;
    const steps = CONFIDENCE_RULE.contradictionSteps;
    const step = steps[Math.min(tracked.streak, steps.length) - 1] as number;
    c -= step * c;
  }
  opinion.confidence = c;
  opinion.lastUpdated = fact.date;
  opinion.evidence.push({ fact, stance, confidence: c });
}

/** Confidence as pages show it: two decimals. */
export function formatConfidence(value: number): string {
  return value.toFixed(2);
}
