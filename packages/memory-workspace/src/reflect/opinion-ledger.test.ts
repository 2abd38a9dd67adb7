import { describe, expect, it } from "vitest";
import { mentionsOf, parseTypedBullet } from "../retain/fact-format.js";
import type { RetainedFact } from "../workspace-types.js";
import { claimOf } from "./claim-tokens.js";
import { CONFIDENCE_RULE, replayOpinions } from "./opinion-ledger.js";

/** A fact from a typed bullet, dated `date`, on line `line` of that day's file. */
function fact(date: string, bullet: string, line = 1): RetainedFact {
  const statement = parseTypedBullet(`- ${bullet}`);
  if (statement === null) throw new Error(`not a typed bullet: ${bullet}`);
  const path = `memory/${date}.md`;
  return {
    key: `fact:${path}#L${line}`,
    kind: statement.kind,
    text: statement.text,
    entities: mentionsOf(statement.text),
    ...(statement.confidence === undefined ? {} : { confidence: statement.confidence }),
    date,
    timestamp: `${date}T00:00:00.000Z`,
    path,
    startLine: line,
    endLine: line,
  };
}

describe("claimOf", () => {
  it("reads negation in English and Chinese, and compares content words", () => {
    expect(claimOf("@Bob prefers Rust for services")).toEqual({
      negated: false,
      tokens: new Set(["prefer", "rust", "service"]),
    });
    expect(claimOf("@Bob does not prefer Rust for services").negated).toBe(true);
    expect(claimOf("@Bob doesn't prefer Rust for services").negated).toBe(true);
    expect(claimOf("@Bob never said he would not prefer Rust").negated).toBe(false);
    expect(claimOf("@张三 不再喜欢 PostgreSQL")).toEqual({
      negated: true,
      tokens: new Set(["喜欢", "postgresql"]),
    });
  });
});

describe("replayOpinions (the confidence rule)", () => {
  it("starts an opinion at its stated confidence, or 0.5 without one", () => {
    const [stated, unstated] = replayOpinions([
      fact("2026-01-01", "O(c=0.8) @Bob prefers Rust for services"),
      fact("2026-01-01", "O @Carol likes long meetings", 2),
    ]);
    expect(stated).toMatchObject({
      statement: "@Bob prefers Rust for services",
      confidence: 0.8,
      statedConfidence: 0.8,
    });
    expect(unstated?.confidence).toBe(CONFIDENCE_RULE.defaultConfidence);
  });

  it("moves confidence a little per supporting fact", () => {
    const [opinion] = replayOpinions([
      fact("2026-01-01", "O(c=0.8) @Bob prefers Rust for services"),
      fact("2026-01-02", "O(c=0.6) @Bob prefers Rust for services"),
      fact("2026-01-03", "W @Bob prefers Rust for services, he said in the review"),
    ]);
    // 0.8 → 0.8 + 0.1 × 0.2 = 0.82 → 0.82 + 0.1 × 0.18 = 0.838
    expect(opinion?.evidence.map((e) => [e.stance, Number(e.confidence.toFixed(4))])).toEqual([
      ["supports", 0.82],
      ["supports", 0.838],
    ]);
    expect(opinion?.lastUpdated).toBe("2026-01-03");
  });

  it("moves confidence a lot only when contradictions repeat, and support resets the streak", () => {
    const [opinion] = replayOpinions([
      fact("2026-01-01", "O(c=0.8) @Bob prefers Rust for services"),
      fact("2026-01-02", "O @Bob does not prefer Rust for services"),
      fact("2026-01-03", "O @Bob no longer prefers Rust for services"),
      fact("2026-01-04", "W @Bob doesn't prefer Rust for services"),
      fact("2026-01-05", "W @Bob doesn't prefer Rust for services any more", 2),
      fact("2026-01-06", "O @Bob prefers Rust for services"),
      fact("2026-01-07", "O @Bob does not prefer Rust for services"),
    ]);
    // −10 %, −25 %, −50 %, −50 %, then support (+10 % of the gap), then −10 % again.
    expect(opinion?.evidence.map((e) => [e.stance, Number(e.confidence.toFixed(4))])).toEqual([
      ["contradicts", 0.72],
      ["contradicts", 0.54],
      ["contradicts", 0.27],
      ["contradicts", 0.135],
      ["supports", 0.2215],
      ["contradicts", 0.1994],
    ]);
  });

  it("needs a shared entity and overlapping words to count a fact as evidence", () => {
    const opinions = replayOpinions([
      fact("2026-01-01", "O(c=0.8) @Bob prefers Rust for services"),
      fact("2026-01-02", "O(c=0.6) @Alice prefers Rust for services"),
      fact("2026-01-03", "W @Bob bought a new bicycle"),
      fact("2026-01-04", "O(c=0.9) @Bob prefers tabs over spaces"),
    ]);
    expect(opinions.map((o) => [o.statement, o.confidence, o.evidence.length])).toEqual([
      ["@Bob prefers Rust for services", 0.8, 0],
      ["@Alice prefers Rust for services", 0.6, 0],
      ["@Bob prefers tabs over spaces", 0.9, 0],
    ]);
  });

  it("tracks Chinese opinions and their contradictions", () => {
    const [opinion] = replayOpinions([
      fact("2026-01-01", "O(c=0.7) @张三 喜欢 PostgreSQL"),
      fact("2026-01-02", "O @张三 不再喜欢 PostgreSQL"),
    ]);
    expect(opinion?.evidence.map((e) => e.stance)).toEqual(["contradicts"]);
    expect(opinion?.confidence).toBeCloseTo(0.63, 10);
  });

  it("replays in date order whatever order the facts come in", () => {
    const facts = [
      fact("2026-01-03", "O @Bob does not prefer Rust for services"),
      fact("2026-01-01", "O(c=0.8) @Bob prefers Rust for services"),
    ];
    expect(replayOpinions(facts)[0]?.statement).toBe("@Bob prefers Rust for services");
    expect(replayOpinions(facts)[0]?.confidence).toBeCloseTo(0.72, 10);
  });
});
