import { tokenizeWords } from "@claw/memory-core";

/** memory_search returns snippets, never whole files (seed 004: ~700 characters). */
export const SNIPPET_MAX_CHARS = 700;

/**
 * `content` when it fits; otherwise a window of at most `max` characters (ellipses included),
 * starting a little before the first query word it contains, cut on code-point boundaries.
 */
export function snippetOf(content: string, query: string, max = SNIPPET_MAX_CHARS): string {
  const chars = Array.from(content);
  if (chars.length <= max) return content;
  const lower = content.toLowerCase();
  let at = -1;
  for (const word of tokenizeWords(query)) {
    const index = lower.indexOf(word);
    if (index !== -1 && (at === -1 || index < at)) at = index;
  }
  // A string index to a code-point index; 80 characters of context before the match.
  const matchPoint = at === -1 ? 0 : Array.from(content.slice(0, at)).length;
  const start = Math.max(0, Math.min(matchPoint - 80, chars.length - (max - 1)));
  const lead = start > 0 ? "…" : "";
  const room = max - lead.length;
  const end = start + room >= chars.length ? chars.length : start + room - 1;
  const tail = end < chars.length ? "…" : "";
  return `${lead}${chars.slice(start, end).join("")}${tail}`;
}
