import type { MemoryEntry, RecallExplanation } from "@claw/memory-api";
import type { Colors } from "./colors.js";

/**
 * Why recall returned an entry, on one line: the score as the product of its parts, then the
 * ranked lists it came from.
 *   0.809 = relevance 1.000 (coverage 1.00, strength 1.00) × recency 0.81 · keyword #1 (2.17e-6,
 *   neighbours 0) [production, database] · fusion bm25
 * An entry longer than a passage adds what its length left of its keyword score: "· 400 words (keyword × 0.50)".
 */
export function explainLine(why: RecallExplanation): string {
  const parts = [
    `${why.score.toFixed(3)} = relevance ${why.relevance.toFixed(3)} ` +
      `(coverage ${why.coverage.toFixed(2)}, strength ${why.strength.toFixed(2)}) × recency ${why.recency.toFixed(2)}`,
  ];
  if (why.keyword !== undefined) {
    const k = why.keyword;
    const lent = k.neighbour > 0 ? `, neighbours ${number(k.neighbour)}` : "";
    parts.push(`keyword #${k.rank} (${number(k.score)}${lent}) [${k.terms.join(", ")}]`);
  }
  if (why.vector !== undefined)
    parts.push(`vector #${why.vector.rank} (cosine ${why.vector.similarity.toFixed(3)})`);
  parts.push(`fusion ${why.fusion}`);
  if (why.length !== undefined)
    parts.push(`${why.length.words} words (keyword × ${why.length.factor.toFixed(2)})`);
  if (why.mmr !== undefined) parts.push(`mmr #${why.mmr}`);
  return parts.join(" · ");
}

/** Under a recall table: each entry's key and why line (entries without one are skipped). */
export function renderExplanations(entries: readonly MemoryEntry[], colors: Colors): string {
  const lines = entries.flatMap((e) =>
    e.explain === undefined ? [] : [`${colors.bold(e.key)}  ${colors.dim(explainLine(e.explain))}`],
  );
  return lines.length === 0 ? "" : `\nwhy:\n${lines.map((l) => `  ${l}`).join("\n")}`;
}

function number(value: number): string {
  return value >= 0.01 || value === 0 ? value.toFixed(3) : value.toExponential(2);
}
