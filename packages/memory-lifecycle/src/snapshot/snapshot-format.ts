import type { MemoryEntry } from "@claw/memory-api";

/** The snapshot's file name in the workspace. */
export const SNAPSHOT_FILE = "MEMORY_SNAPSHOT.md";
const MARKER = "<!-- claw-memory snapshot v1 -->";

const HEADER = `# Memory snapshot

Core memories exported by claw-memory. When \`brain.db\` is missing, they are indexed again from this
file. Each memory is a \`##\` section: its fields as a list, its content in the fenced block.

${MARKER}
`;

/** The snapshot of `entries`, deterministic: sorted by namespace then key, no export time. */
export function renderSnapshot(entries: readonly MemoryEntry[]): string {
  const sorted = [...entries].sort((a, b) => compare(a.namespace, b.namespace) || compare(a.key, b.key));
  return HEADER + sorted.map(renderEntry).join("");
}

function renderEntry(entry: MemoryEntry): string {
  const fields: Array<[string, unknown]> = [
    ["key", entry.key],
    ["namespace", entry.namespace],
    ["category", entry.category],
    ["created", entry.createdAt],
    ["updated", entry.updatedAt],
  ];
  if (entry.importance !== undefined) fields.push(["importance", entry.importance]);
  if (entry.sessionId !== undefined) fields.push(["session", entry.sessionId]);
  if (entry.supersededBy !== undefined) fields.push(["superseded_by", entry.supersededBy]);
  if (entry.source !== undefined) fields.push(["source", entry.source]);
  const fence = "`".repeat(Math.max(3, longestBacktickRun(entry.content) + 1));
  return [
    "",
    `## ${entry.key.replace(/\s+/g, " ")}`,
    "",
    ...fields.map(([name, value]) => `- ${name}: ${JSON.stringify(value)}`),
    "",
    `${fence}text`,
    entry.content,
    fence,
    "",
  ].join("\n");
}

export interface ParsedSnapshot {
  entries: Array<Partial<MemoryEntry>>;
  /** Sections that could not be read, with why. */
  errors: string[];
}

/** Reads what renderSnapshot wrote; a damaged section is reported and skipped, not guessed at. */
export function parseSnapshot(text: string): ParsedSnapshot {
  const lines = text.split("\n");
  const entries: Array<Partial<MemoryEntry>> = [];
  const errors: string[] = [];
  let i = 0;
  while (i < lines.length) {
    if (!(lines[i] as string).startsWith("## ")) {
      i++;
      continue;
    }
    const heading = lines[i] as string;
    i++;
    const fields = new Map<string, unknown>();
    let problem: string | undefined;
    for (; i < lines.length && !/^`{3,}text$/.test(lines[i] as string); i++) {
      const line = lines[i] as string;
      if (line.startsWith("## ")) break;
      const match = /^- ([a-z_]+): (.*)$/.exec(line);
      if (match === null) continue;
      try {
        fields.set(match[1] as string, JSON.parse(match[2] as string));
      } catch {
        problem = `field ${match[1]} is not valid JSON`;
      }
    }
    const open = lines[i];
    if (open === undefined || !/^`{3,}text$/.test(open)) {
      errors.push(`${heading}: no content block`);
      continue;
    }
    const fence = open.slice(0, -"text".length);
    const end = lines.indexOf(fence, i + 1);
    if (end === -1) {
      errors.push(`${heading}: the content block is not closed`);
      break;
    }
    const content = lines.slice(i + 1, end).join("\n");
    i = end + 1;
    const entry = toEntry(fields, content);
    if (problem !== undefined || typeof entry === "string") errors.push(`${heading}: ${problem ?? entry}`);
    else entries.push(entry);
  }
  return { entries, errors };
}

function toEntry(fields: Map<string, unknown>, content: string): Partial<MemoryEntry> | string {
  const key = fields.get("key");
  if (typeof key !== "string") return "no key";
  const entry: Partial<MemoryEntry> = { key, content, category: "core" };
  const text = (name: string) => {
    const value = fields.get(name);
    return typeof value === "string" ? value : undefined;
  };
  entry.namespace = text("namespace") ?? "default";
  entry.category = text("category") ?? "core";
  entry.createdAt = text("created");
  entry.updatedAt = text("updated");
  entry.sessionId = text("session");
  entry.supersededBy = text("superseded_by");
  const importance = fields.get("importance");
  if (typeof importance === "number") entry.importance = importance;
  const source = fields.get("source");
  if (source !== undefined) entry.source = source as MemoryEntry["source"];
  for (const name of Object.keys(entry) as Array<keyof MemoryEntry>) {
    if (entry[name] === undefined) delete entry[name];
  }
  return entry;
}

function longestBacktickRun(text: string): number {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return longest;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
