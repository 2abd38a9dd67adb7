// Reads the retained facts back from the index, and the entity summary built from them.
import type { Memory, MemoryEntry } from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";
import { FACT_KEY_PREFIX } from "../sync/entry-keys.js";
import type { EntitySummary, RetainedFact } from "../workspace-types.js";
import { canonicalNameOf, comparisonKey, type EntityAliases, NO_ALIASES } from "./entity-aliases.js";
import { entityKey, FACT_CATEGORY, mentionsOf, parseFactContent } from "./fact-format.js";

/** Every fact of the namespace, oldest first (date, then file, then line). */
export async function readFacts(memory: Memory, namespace: string): Promise<RetainedFact[]> {
  const entries = await memory.export({ namespace, category: FACT_CATEGORY });
  const facts = entries.flatMap((entry) => {
    const fact = factOf(entry);
    return fact === null ? [] : [fact];
  });
  return facts.sort(chronological);
}

export function factOf(entry: MemoryEntry): RetainedFact | null {
  if (!entry.key.startsWith(FACT_KEY_PREFIX) || entry.source === undefined) return null;
  const statement = parseFactContent(entry.content);
  if (statement === null) return null;
  const fact: RetainedFact = {
    key: entry.key,
    kind: statement.kind,
    text: statement.text,
    entities: mentionsOf(statement.text),
    date: entry.createdAt.slice(0, 10),
    timestamp: entry.createdAt,
    path: entry.source.path,
    startLine: entry.source.startLine,
    endLine: entry.source.endLine,
  };
  if (statement.confidence !== undefined) fact.confidence = statement.confidence;
  return fact;
}

export function chronological(a: RetainedFact, b: RetainedFact): number {
  return compare(a.timestamp, b.timestamp) || compare(a.path, b.path) || a.startLine - b.startLine;
}

/** True when the fact mentions the entity of `key` (a comparisonKey), under any of its names. */
export function mentions(fact: RetainedFact, key: string, aliases: EntityAliases = NO_ALIASES): boolean {
  return fact.entities.some((name) => comparisonKey(aliases, name) === key);
}

/**
 * What the facts say about one entity: opinions apart from the rest, newest first. A name an alias
 * page declares stands for the page's entity: its facts under any of its names, and its canonical name.
 */
export async function entitySummary(
  memory: Memory,
  namespace: string,
  name: string,
  loadAliases: () => Promise<EntityAliases> = async () => NO_ALIASES,
): Promise<EntitySummary> {
  const trimmed = typeof name === "string" ? name.trim() : "";
  if (entityKey(trimmed) === "") throw MemoryError.invalidInput("name", "must be a non-empty entity name");
  const [facts, aliases] = await Promise.all([readFacts(memory, namespace), loadAliases()]);
  const key = comparisonKey(aliases, trimmed);
  const about = facts.filter((fact) => mentions(fact, key, aliases)).reverse();
  return {
    name: canonicalNameOf(aliases, trimmed) ?? trimmed.replace(/^@/, ""),
    facts: about.filter((fact) => fact.kind !== "opinion"),
    opinions: about.filter((fact) => fact.kind === "opinion"),
  };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
