import type { MemoryEntry } from "@claw/memory-api";
import type { Colors } from "./colors.js";
import { relativeTime } from "./relative-time.js";
import { renderTable } from "./table.js";

/** `notes.md:3-9` for entries indexed from a file. */
export function sourceOf(entry: MemoryEntry): string {
  const s = entry.source;
  return s === undefined ? "" : `${s.path}:${s.startLine}-${s.endLine}`;
}

/** An entry's metadata as one line of JSON, or "" when it has none. */
export function metadataText(entry: MemoryEntry): string {
  return entry.metadata === undefined ? "" : JSON.stringify(entry.metadata);
}

/** The widest a table's METADATA column gets: the CONTENT column keeps the rest of the line. */
const METADATA_WIDTH = 40;

/**
 * Recall hits or a listing as an aligned table; a score column when the entries have scores, a
 * metadata column when some have metadata, an expiry column when some expire.
 */
export function renderEntries(
  entries: readonly MemoryEntry[],
  now: Date,
  colors: Colors,
  width: number,
): string {
  if (entries.length === 0) return colors.dim("(no memories)");
  const scored = entries.some((e) => e.score !== undefined);
  const namespaces = new Set(entries.map((e) => e.namespace)).size > 1;
  const described = entries.some((e) => e.metadata !== undefined);
  const expiring = entries.some((e) => e.expiresAt !== undefined);
  return renderTable(
    entries,
    [
      ...(scored
        ? [{ header: "SCORE", value: (e: MemoryEntry) => formatScore(e.score ?? 0), align: "right" as const }]
        : []),
      ...(namespaces ? [{ header: "NAMESPACE", value: (e: MemoryEntry) => e.namespace }] : []),
      { header: "KEY", value: (e) => colors.bold(e.key) },
      { header: "CATEGORY", value: (e) => e.category },
      { header: "UPDATED", value: (e) => relativeTime(e.updatedAt, now) },
      ...(expiring
        ? [
            {
              header: "EXPIRES",
              value: (e: MemoryEntry) => (e.expiresAt === undefined ? "" : relativeTime(e.expiresAt, now)),
            },
          ]
        : []),
      ...(described
        ? [{ header: "METADATA", value: (e: MemoryEntry) => cut(metadataText(e), METADATA_WIDTH) }]
        : []),
      {
        header: "CONTENT",
        value: (e) => (e.source === undefined ? e.content : `${e.content} ${colors.dim(`(${sourceOf(e)})`)}`),
        flexible: true,
      },
    ],
    width,
  );
}

/** One entry in full: its fields, then its content. */
export function renderEntry(entry: MemoryEntry, now: Date, colors: Colors): string {
  const fields: Array<[string, string | undefined]> = [
    ["key", entry.key],
    ["namespace", entry.namespace],
    ["category", entry.category],
    ["importance", entry.importance?.toFixed(2)],
    ["session", entry.sessionId],
    ["created", `${entry.createdAt} (${relativeTime(entry.createdAt, now)})`],
    ["updated", `${entry.updatedAt} (${relativeTime(entry.updatedAt, now)})`],
    ["superseded by", entry.supersededBy],
    ["source", entry.source === undefined ? undefined : sourceOf(entry)],
    ["metadata", entry.metadata === undefined ? undefined : metadataText(entry)],
    [
      "expires",
      entry.expiresAt === undefined
        ? undefined
        : `${entry.expiresAt} (${relativeTime(entry.expiresAt, now)})`,
    ],
  ];
  const shown = fields.filter((f): f is [string, string] => f[1] !== undefined);
  const width = Math.max(...shown.map(([name]) => name.length));
  return [
    ...shown.map(([name, value]) => `${colors.dim(name.padEnd(width))}  ${value}`),
    "",
    entry.content,
  ].join("\n");
}

function cut(text: string, width: number): string {
  const chars = Array.from(text);
  return chars.length <= width ? text : `${chars.slice(0, width - 1).join("")}…`;
}

/** Three decimals, or three significant digits for the tiny raw BM25 scores of small stores. */
export function formatScore(score: number): string {
  return score === 0 || Math.abs(score) >= 0.001 ? score.toFixed(3) : score.toExponential(2);
}
