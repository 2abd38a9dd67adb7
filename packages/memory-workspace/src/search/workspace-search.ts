// memory_search: recall over file chunks, facts and stored entries, as hits with their sources.

import type { Memory, MemoryEntry, RecallOptions } from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";
import { parseTimeBound } from "@claw/memory-core";
import { comparisonKey, type EntityAliases, NO_ALIASES } from "../retain/entity-aliases.js";
import { entityKey, FACT_CATEGORY, FACT_KINDS, mentionsOf, parseFactContent } from "../retain/fact-format.js";
import { FACT_KEY_PREFIX, FILE_KEY_PREFIX, SESSION_KEY_PREFIX } from "../sync/entry-keys.js";
import type { HitOrigin, SearchHit, WorkspaceSearchOptions } from "../workspace-types.js";
import { snippetOf } from "./snippet.js";

/** Hits a search returns unless `limit` says otherwise. */
export const DEFAULT_SEARCH_LIMIT = 5;
/** With an entity or kind filter, recall fetches this many times the limit and filters after. */
const FILTER_OVERFETCH = 10;
const MAX_FETCH = 500;

export interface SearchContext {
  memory: Memory;
  namespace: string;
  now: () => Date;
  /** The provider and model of the memory, read once from status(). */
  embedding: () => Promise<{ provider: string; model: string } | null>;
  /** The workspace's entity aliases, read when a search filters by entity. Default: none. */
  aliases?: () => Promise<EntityAliases>;
}

/**
 * Hybrid recall (the memory's own pipeline: BM25 + vectors, decay, fallbacks) in the index's
 * namespace, then the entity and kind filters, which recall does not know: they over-fetch and
 * filter, so a rare entity among many better matches may be missed beyond 10× the limit. An entity
 * matches under any name its alias page declares.
 */
export async function searchWorkspace(
  context: SearchContext,
  query: string,
  options: WorkspaceSearchOptions = {},
): Promise<SearchHit[]> {
  if (typeof query !== "string") throw MemoryError.invalidInput("query", "expected a string");
  const limit = options.limit ?? DEFAULT_SEARCH_LIMIT;
  if (!Number.isInteger(limit) || limit < 1)
    throw MemoryError.invalidInput("limit", `must be a positive integer, got ${String(limit)}`);
  if (options.kind !== undefined && !FACT_KINDS.includes(options.kind))
    throw MemoryError.invalidInput(
      "kind",
      `expected one of ${FACT_KINDS.join(", ")}, got ${String(options.kind)}`,
    );
  const entity = options.entity === undefined ? undefined : entityOf(options.entity);
  const filtered = entity !== undefined || options.kind !== undefined;
  const now = context.now();
  const recall: RecallOptions = {
    limit: filtered ? Math.min(limit * FILTER_OVERFETCH, MAX_FETCH) : limit,
    namespace: options.namespace ?? context.namespace,
    since: parseTimeBound(options.since, now, "since"),
    until: parseTimeBound(options.until, now, "until"),
    categories: options.kind !== undefined ? [FACT_CATEGORY] : options.categories,
    mode: options.mode,
    minScore: options.minScore,
    signal: options.signal,
  };
  const [entries, embedding, aliases] = await Promise.all([
    context.memory.recall(query, recall),
    context.embedding(),
    entity === undefined || context.aliases === undefined ? NO_ALIASES : context.aliases(),
  ]);
  const wanted = entity === undefined ? undefined : comparisonKey(aliases, entity);
  const hits: SearchHit[] = [];
  for (const entry of entries) {
    const hit = toHit(entry, query, embedding);
    if (options.kind !== undefined && hit.kind !== options.kind) continue;
    if (wanted !== undefined && !hit.entities.some((name) => comparisonKey(aliases, name) === wanted))
      continue;
    hits.push(hit);
    if (hits.length === limit) break;
  }
  return hits;
}

function toHit(
  entry: MemoryEntry,
  query: string,
  embedding: { provider: string; model: string } | null,
): SearchHit {
  const origin = originOf(entry);
  const fact = origin === "fact" ? parseFactContent(entry.content) : null;
  const hit: SearchHit = {
    key: entry.key,
    origin,
    snippet: snippetOf(fact?.text ?? entry.content, query),
    score: entry.score ?? 0,
    category: entry.category,
    namespace: entry.namespace,
    timestamp: entry.timestamp,
    entities: mentionsOf(entry.content),
    provider: embedding?.provider ?? null,
    model: embedding?.model ?? null,
  };
  if (entry.source !== undefined) {
    hit.path = entry.source.path;
    hit.startLine = entry.source.startLine;
    hit.endLine = entry.source.endLine;
  }
  if (fact !== null) {
    hit.kind = fact.kind;
    if (fact.confidence !== undefined) hit.confidence = fact.confidence;
  }
  return hit;
}

function originOf(entry: MemoryEntry): HitOrigin {
  if (entry.source === undefined) return "memory";
  if (entry.key.startsWith(FACT_KEY_PREFIX) && entry.category === FACT_CATEGORY) return "fact";
  if (entry.key.startsWith(FILE_KEY_PREFIX)) return "file";
  if (entry.key.startsWith(SESSION_KEY_PREFIX)) return "session";
  return "memory";
}

/** The entity name as given, trimmed; refused when it names nothing. */
function entityOf(value: unknown): string {
  const name = typeof value === "string" ? value.trim() : "";
  if (entityKey(name) === "") throw MemoryError.invalidInput("entity", "must be a non-empty entity name");
  return name;
}
