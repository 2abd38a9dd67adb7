// What a memory tool call may touch and how its entries come back: shared by the MCP server and
// the agent-framework adapters, so every surface refuses and answers the same way.
import type { Memory, MemoryEntry, MemorySource, Metadata } from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";

/** What a caller of the tools may touch (the server derives it from the request's token). */
export interface MemoryToolScope {
  /** Namespaces the caller may use, the first being its default; undefined = every namespace. */
  namespaces?: readonly string[];
  /** Refuse memory_store, memory_forget and every other write. */
  readOnly?: boolean;
  /** Who is refused, in error messages; default "this tool" (the server says "this token"). */
  subject?: string;
}

/** What a tool call runs with: its scope, and who its writes are recorded as. */
export interface MemoryToolContext {
  scope?: MemoryToolScope;
  /** Who the tools' writes are recorded as in the entries' history; default the memory's own. */
  actor?: string;
  /** The session memory_store tags its entries with (so purgeSession removes them). */
  sessionId?: string;
  /** Answers memory_recall; default `memory.recall` (the server passes its recall workers'). */
  recall?: Memory["recall"];
}

/** One memory as the tools return it: what a model needs, no embedding, no internal id. */
export type MemoryToolEntry = {
  key: string;
  content: string;
  category: string;
  namespace: string;
  score?: number;
  importance?: number;
  updatedAt: string;
  source?: MemorySource;
  metadata?: Metadata;
  expiresAt?: string;
};

/** The namespace a call uses, refused (FORBIDDEN) when the scope does not include it. */
export function scopedNamespace(scope: MemoryToolScope | undefined, namespace: string | undefined): string {
  const wanted = namespace ?? scope?.namespaces?.[0] ?? "default";
  if (scope?.namespaces !== undefined && !scope.namespaces.includes(wanted)) {
    throw new MemoryError(
      "FORBIDDEN",
      `${scope.subject ?? "this tool"} may not use the namespace ${JSON.stringify(wanted)}`,
    );
  }
  return wanted;
}

/** FORBIDDEN when the scope is read-only. */
export function assertWritable(scope: MemoryToolScope | undefined): void {
  if (scope?.readOnly) throw new MemoryError("FORBIDDEN", `${scope.subject ?? "this tool"} is read-only`);
}

/** The `{ actor }` store/forget options of a context, or nothing (the memory's own actor). */
export function actorOf(context: MemoryToolContext): { actor?: string } {
  return context.actor === undefined ? {} : { actor: context.actor };
}

/**
 * An entry as the tools return it: key, content, category, namespace, score and the other fields a model
 * needs.
 */
export function toolEntryOf(entry: MemoryEntry): MemoryToolEntry {
  return {
    key: entry.key,
    content: entry.content,
    category: entry.category,
    namespace: entry.namespace,
    ...(entry.score === undefined ? {} : { score: Number(entry.score.toFixed(6)) }),
    ...(entry.importance === undefined ? {} : { importance: entry.importance }),
    updatedAt: entry.updatedAt,
    ...(entry.source === undefined ? {} : { source: entry.source }),
    ...(entry.metadata === undefined ? {} : { metadata: entry.metadata }),
    ...(entry.expiresAt === undefined ? {} : { expiresAt: entry.expiresAt }),
  };
}
