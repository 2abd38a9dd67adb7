// Turns one Markdown file into the entries that index it: its chunks, plus the facts of a daily file.
import type { MemoryCategory, MemorySource } from "@claw/memory-api";
import { chunkMarkdown } from "@claw/memory-core";
import { dayTimestamp } from "../files/workspace-paths.js";
import { FACT_CATEGORY, formatFactContent } from "../retain/fact-format.js";
import { parseRetainSections } from "../retain/retain-parser.js";
import { chunkKey, factKey } from "./entry-keys.js";

/** An entry as the index writes it; everything a rebuild must reproduce exactly. */
export interface IndexedEntry {
  key: string;
  content: string;
  category: MemoryCategory;
  namespace: string;
  createdAt: string;
  updatedAt: string;
  source: MemorySource;
  sessionId?: string;
  /** The chunk's heading path (MemoryEntry.context). */
  context?: string;
}

export interface FileToIndex {
  path: string;
  category: MemoryCategory;
  /** YYYY-MM-DD of a daily file. */
  date?: string;
  mtimeMs: number;
}

export interface FileEntriesOptions {
  namespace: string;
  chunkTokens: number;
  chunkOverlapTokens: number;
}

export interface FileEntries {
  entries: IndexedEntry[];
  /** Lines of untyped or malformed Retain bullets, for the log. */
  notes: string[];
}

/**
 * Chunks (chunkMarkdown, ~400 tokens with 80 of overlap) keyed `file:<path>#<n>`, and for daily
 * files the typed Retain bullets keyed `fact:<path>#L<line>`. A daily file's entries carry its
 * date; other files their modification time, so since/until and decay mean "written then".
 */
export function fileEntries(file: FileToIndex, text: string, options: FileEntriesOptions): FileEntries {
  const time =
    file.date === undefined ? new Date(Math.floor(file.mtimeMs)).toISOString() : dayTimestamp(file.date);
  const base = { namespace: options.namespace, createdAt: time, updatedAt: time };
  const entries: IndexedEntry[] = chunkMarkdown(text, {
    maxTokens: options.chunkTokens,
    overlapTokens: options.chunkOverlapTokens,
  }).map((chunk, index) => ({
    ...base,
    key: chunkKey(file.path, index),
    content: chunk.text,
    category: file.category,
    source: { path: file.path, startLine: chunk.startLine, endLine: chunk.endLine },
    // The headings above the chunk: a chunk deep in a section is found by its section's titles.
    ...(chunk.headingPath === undefined ? {} : { context: chunk.headingPath }),
  }));
  const notes: string[] = [];
  if (file.date !== undefined) {
    const retained = parseRetainSections(text);
    for (const fact of retained.facts) {
      if (fact.badConfidence !== undefined)
        notes.push(
          `${file.path}:${fact.startLine}: confidence "${fact.badConfidence}" is not a number in 0..1`,
        );
      entries.push({
        ...base,
        key: factKey(file.path, fact.startLine),
        content: formatFactContent(fact),
        category: FACT_CATEGORY,
        source: { path: file.path, startLine: fact.startLine, endLine: fact.endLine },
      });
    }
    for (const line of retained.untyped)
      notes.push(`${file.path}:${line}: Retain bullet without a W/B/O/S prefix is not a fact`);
  }
  return { entries, notes };
}
