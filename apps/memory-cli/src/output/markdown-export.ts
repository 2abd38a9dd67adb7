import type { MemoryEntry } from "@claw/memory-api";
import { sourceOf } from "./render-entries.js";

/** A readable Markdown export: one section per category, one entry per bullet block. */
export function renderMarkdownExport(entries: readonly MemoryEntry[]): string {
  const byCategory = new Map<string, MemoryEntry[]>();
  for (const e of entries) {
    const group = byCategory.get(e.category);
    if (group) group.push(e);
    else byCategory.set(e.category, [e]);
  }
  const out = [`# claw-memory export (${entries.length} memories)`, ""];
  for (const [category, group] of byCategory) {
    out.push(`## ${category}`, "");
    for (const e of group) {
      const meta = [
        e.namespace !== "default" ? `namespace ${e.namespace}` : "",
        `updated ${e.updatedAt}`,
        sourceOf(e),
      ]
        .filter((m) => m !== "")
        .join(", ");
      out.push(`### ${e.key}`, "", `_${meta}_`, "", e.content, "");
    }
  }
  return `${out.join("\n").trimEnd()}\n`;
}
