import type { MemoryEntry } from "@claw/memory-api";

/**
 * The system prompt the curator sends with the memories: find duplicates, contradictions and memories of no
 * lasting value, answer in JSON.
 */
export const CURATOR_SYSTEM_PROMPT = `You curate the long-term memory of an AI assistant.
You are shown memories as JSON lines. Find exact or near duplicates, memories that contradict a newer
one, and memories of no lasting value. Answer with JSON only, in this shape:
{"delete": ["key", ...], "merge": [{"keys": ["key", "key", ...], "content": "one concise memory that keeps every fact of the merged ones"}]}
Use only keys from the list. Prefer merging to deleting; never delete a memory just because it is old.
Answer {"delete": [], "merge": []} when nothing should change.`;

/** One page of memories for the curator, as JSON lines the model can quote keys from. */
export function curatorPrompt(entries: readonly MemoryEntry[]): string {
  const lines = entries.map((e) =>
    JSON.stringify({
      key: e.key,
      category: e.category,
      updated: e.updatedAt.slice(0, 10),
      content: e.content,
    }),
  );
  return `Memories (${entries.length}):\n${lines.join("\n")}`;
}
