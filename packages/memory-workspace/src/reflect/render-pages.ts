// The bodies of the bank pages reflect() maintains (page-block.ts puts them inside a page).
import { contentHash } from "@claw/memory-core";
import type { RetainedFact } from "../workspace-types.js";
import { formatConfidence, type Opinion } from "./opinion-ledger.js";
import { clean } from "./page-block.js";

export interface EntityPage {
  name: string;
  /** Facts about the entity, newest first. */
  facts: RetainedFact[];
  /** Opinions naming the entity. */
  opinions: Opinion[];
}

/** The deterministic part of an entity page (everything but a generated summary). */
export function entityBody(page: EntityPage, summary?: string): string {
  const lines: string[] = [];
  const latest = page.facts[0]?.date;
  lines.push(`- Facts: ${page.facts.length}${latest === undefined ? "" : ` (latest ${latest})`}`);
  lines.push(`- Opinions: ${page.opinions.length}`);
  if (summary !== undefined && summary.trim() !== "") lines.push("", "## Summary", "", clean(summary.trim()));
  lines.push("", "## Facts", "");
  for (const fact of page.facts)
    lines.push(`- ${fact.date} · ${fact.kind} · ${clean(fact.text)} (${link(fact, "../../")})`);
  if (page.opinions.length > 0) {
    lines.push("", "## Opinions", "");
    for (const opinion of page.opinions)
      lines.push(
        `- ${clean(opinion.statement)}: confidence ${formatConfidence(opinion.confidence)}, last updated ${opinion.lastUpdated} (${link(opinion.origin, "../../")})`,
      );
  }
  return lines.join("\n");
}

/** bank/opinions.md's block: each opinion with its confidence, date and evidence links. */
export function opinionsBody(opinions: readonly Opinion[]): string {
  const lines: string[] = [];
  if (opinions.length === 0) lines.push("No opinions retained yet.");
  for (const opinion of opinions) {
    const supporting = opinion.evidence.filter((e) => e.stance === "supports");
    const contradicting = opinion.evidence.filter((e) => e.stance === "contradicts");
    lines.push(`## ${clean(opinion.statement)}`, "");
    lines.push(
      `- Confidence: ${formatConfidence(opinion.confidence)} (stated ${formatConfidence(opinion.statedConfidence)}; ${supporting.length} supporting, ${contradicting.length} contradicting)`,
    );
    lines.push(`- Last updated: ${opinion.lastUpdated}`);
    if (opinion.entities.length > 0) lines.push(`- Entities: ${opinion.entities.join(", ")}`);
    lines.push(`- Stated: ${evidenceLine(opinion.origin)}`);
    for (const [label, items] of [
      ["Supporting", supporting],
      ["Contradicting", contradicting],
    ] as const) {
      if (items.length === 0) continue;
      lines.push(`- ${label}:`);
      for (const item of items)
        lines.push(`  - ${evidenceLine(item.fact)} → ${formatConfidence(item.confidence)}`);
    }
    lines.push("");
  }
  return lines.join("\n").trimEnd();
}

export function digest(body: string): string {
  return contentHash(body);
}

/** `bank/entities/<Name>.md`: the name with anything unsafe in a file name replaced by "-". */
export function entityFileName(name: string): string {
  const safe = name
    .normalize("NFC")
    .replace(/[^\p{L}\p{N}\p{M}_.-]+/gu, "-")
    .replace(/^[.-]+|[.-]+$/g, "");
  return `${safe === "" ? "entity" : safe}.md`;
}

function evidenceLine(fact: RetainedFact): string {
  const stated = fact.confidence === undefined ? "" : ` (c=${fact.confidence})`;
  return `${fact.date} ${fact.kind}: ${clean(fact.text)}${stated} (${link(fact, "../")})`;
}

/** `[memory/2025-11-27.md#L12](../memory/2025-11-27.md#L12)`, relative to the page. */
function link(fact: RetainedFact, up: string): string {
  const target = `${fact.path}#L${fact.startLine}`;
  return `[${target}](${up}${encodeURI(fact.path)}#L${fact.startLine})`;
}
