import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Memory, MemoryEntry } from "@claw/memory-api";
import { chunkMarkdown } from "@claw/memory-core";
import { expect } from "vitest";
import { formatFactContent } from "../retain/fact-format.js";
import { parseRetainSections } from "../retain/retain-parser.js";
import { day, writeFiles } from "./temp-workspace.js";

/** The days of the fixture's daily files, relative to today (so `since: "7d"` has meaning). */
export const DAYS = { old: day(-40), recent: day(-3), chinese: day(-1) };

/**
 * A small workspace: MEMORY.md, three daily files (one 40 days old, one in Chinese) with Retain
 * sections, a bank page and an undated note. Returns the paths written.
 */
export function writeFixtureWorkspace(dir: string): string[] {
  const files: Record<string, string> = {
    "MEMORY.md": [
      "# Memory",
      "",
      "## Preferences",
      "- The user prefers concise answers.",
      "- Deploys happen on Fridays only after review.",
      "",
      "## Projects",
      "- claw-memory: long-term memory for agents, written in TypeScript.",
      "",
    ].join("\n"),
    [`memory/${DAYS.old}.md`]: [
      `# ${DAYS.old}`,
      "",
      "Worked on the castle network. The router in the attic was replaced.",
      "",
      "## Retain",
      "- W @TheCastle has a new router in the attic",
      "- O(c=0.8) @Bob prefers Rust for services",
      "",
    ].join("\n"),
    [`memory/${DAYS.recent}.md`]: [
      `# ${DAYS.recent}`,
      "",
      "Met @Alice at the conference; she talked about warelay.",
      "",
      "## Retain",
      "- W @Alice works at Acme on warelay",
      "- B I gave a talk about memory indexes with @Alice",
      "- O(c=0.6) @Bob prefers Rust for services",
      "",
      "## Later",
      "- W this bullet is outside the Retain section",
      "",
    ].join("\n"),
    [`memory/${DAYS.chinese}.md`]: [
      `# ${DAYS.chinese}`,
      "",
      "和张三讨论了数据库迁移。",
      "",
      "## 保留",
      "- W @张三 在 杭州 工作",
      "- O(c=0.7) @张三 喜欢 PostgreSQL",
      "- S 迁移计划已经确定",
      "",
    ].join("\n"),
    "bank/world.md": "# World\n\n- The office wifi is called castle-net.\n",
    "memory/projects/warelay.md": "# warelay\n\nwarelay is the relay service; it forwards webhooks.\n",
  };
  writeFiles(dir, files);
  return Object.keys(files).sort();
}

/** What the index must hold for the Markdown files now in `dir`, derived independently of sync. */
export function entriesTheFilesSay(dir: string): Array<Record<string, unknown>> {
  const expected: Array<Record<string, unknown>> = [];
  for (const path of markdownFiles(dir)) {
    const text = readFileSync(join(dir, path), "utf8");
    const dated = /(?:^|\/)(\d{4}-\d{2}-\d{2})\.md$/.exec(path)?.[1];
    const category = path === "MEMORY.md" || path.startsWith("bank/") ? "core" : dated ? "daily" : "note";
    const time = dated
      ? `${dated}T00:00:00.000Z`
      : new Date(Math.floor(statSync(join(dir, path)).mtimeMs)).toISOString();
    chunkMarkdown(text, { maxTokens: 400, overlapTokens: 80 }).forEach((chunk, n) => {
      const source = { path, startLine: chunk.startLine, endLine: chunk.endLine };
      expected.push({ key: `file:${path}#${n}`, content: chunk.text, category, time, source });
    });
    if (!dated) continue;
    for (const fact of parseRetainSections(text).facts) {
      const source = { path, startLine: fact.startLine, endLine: fact.endLine };
      expected.push({
        key: `fact:${path}#L${fact.startLine}`,
        content: formatFactContent(fact),
        category: "fact",
        time,
        source,
      });
    }
  }
  return expected.sort(byKey);
}

/** The index's entries in the same shape (ids left out: a rebuild gives new ones). */
export async function entriesIndexed(
  memory: Memory,
  namespace = "default",
): Promise<Array<Record<string, unknown>>> {
  const entries = await memory.export({ namespace });
  return entries
    .filter((e) => e.key.startsWith("file:") || e.key.startsWith("fact:"))
    .map((e: MemoryEntry) => {
      expect(e.createdAt).toBe(e.updatedAt);
      return { key: e.key, content: e.content, category: e.category, time: e.updatedAt, source: e.source };
    })
    .sort(byKey);
}

function markdownFiles(dir: string): string[] {
  const found: string[] = [];
  const walk = (rel: string) => {
    for (const entry of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const path = rel === "" ? entry.name : `${rel}/${entry.name}`;
      if (entry.name.startsWith(".")) continue;
      if (entry.isDirectory() && (rel !== "" || entry.name === "memory" || entry.name === "bank")) walk(path);
      else if (entry.isFile() && path.endsWith(".md") && (rel !== "" || path === "MEMORY.md"))
        found.push(path);
    }
  };
  walk("");
  return found;
}

function byKey(a: Record<string, unknown>, b: Record<string, unknown>): number {
  return String(a.key) < String(b.key) ? -1 : 1;
}
