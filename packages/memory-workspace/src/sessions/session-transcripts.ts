// Session transcripts (`*.jsonl`, one message per line) as "conversation" entries.
import { open, readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { chunkMarkdown } from "@claw/memory-core";
import { sessionKey } from "../sync/entry-keys.js";
import type { IndexedEntry } from "../sync/file-entries.js";

/** Transcripts are labelled `sessions/<file>` in keys and sources, wherever their folder is. */
export const SESSION_PATH_PREFIX = "sessions/";

export interface TranscriptFile {
  path: string;
  absPath: string;
  size: number;
  mtimeMs: number;
  /** The file name without `.jsonl`. */
  sessionId: string;
}

export interface TranscriptOptions {
  namespace: string;
  chunkTokens: number;
  chunkOverlapTokens: number;
}

/** The `*.jsonl` files directly in `dir` (none when it does not exist), sorted by name. */
export async function scanTranscripts(dir: string): Promise<TranscriptFile[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const files: TranscriptFile[] = [];
  for (const name of names.filter((n) => n.endsWith(".jsonl") && !n.startsWith(".")).sort()) {
    const absPath = join(dir, name);
    const info = await stat(absPath).catch(() => null);
    if (info === null || !info.isFile()) continue;
    const sessionId = name.slice(0, -".jsonl".length);
    files.push({
      path: `${SESSION_PATH_PREFIX}${name}`,
      absPath,
      size: info.size,
      mtimeMs: info.mtimeMs,
      sessionId,
    });
  }
  return files;
}

/** Lines appended since byte `from`, counted without reading what was already indexed. */
export async function linesAppended(absPath: string, from: number): Promise<number> {
  const handle = await open(absPath, "r");
  try {
    let count = 0;
    const buffer = Buffer.alloc(64 * 1024);
    let position = from;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
      if (bytesRead === 0) return count;
      for (let i = 0; i < bytesRead; i++) if (buffer[i] === 0x0a) count++;
      position += bytesRead;
    }
  } finally {
    await handle.close();
  }
}

/**
 * One text line per JSONL line ("role: text", blank for lines that hold no message), chunked, so
 * a chunk's line range is the range of JSONL lines it came from. Chunks carry the time of their
 * first message that has one, else the file's modification time.
 */
export function transcriptEntries(
  file: TranscriptFile,
  text: string,
  options: TranscriptOptions,
): { entries: IndexedEntry[]; lines: number } {
  const jsonLines = text.split("\n");
  if (jsonLines[jsonLines.length - 1] === "") jsonLines.pop();
  const messages = jsonLines.map(messageOf);
  const rendered = messages.map((m) => (m === null ? "" : `${m.role}: ${m.text.replace(/\s*\n\s*/g, " ")}`));
  const fallback = new Date(Math.floor(file.mtimeMs)).toISOString();
  const chunks = chunkMarkdown(rendered.join("\n"), {
    maxTokens: options.chunkTokens,
    overlapTokens: options.chunkOverlapTokens,
  });
  const entries = chunks.map((chunk, index): IndexedEntry => {
    const time =
      messages.slice(chunk.startLine - 1, chunk.endLine).find((m) => m?.timestamp !== undefined)?.timestamp ??
      fallback;
    return {
      key: sessionKey(file.path, index),
      content: chunk.text,
      category: "conversation",
      namespace: options.namespace,
      sessionId: file.sessionId,
      createdAt: time,
      updatedAt: time,
      source: { path: file.path, startLine: chunk.startLine, endLine: chunk.endLine },
    };
  });
  return { entries, lines: jsonLines.length };
}

interface Message {
  role: string;
  text: string;
  timestamp?: string;
}

/** `{ role, content }` or `{ type: "message", message: { role, content } }`; content a string or
 *  an array of `{ type: "text", text }` parts. Anything else (tool calls, metadata) is skipped. */
function messageOf(line: string): Message | null {
  let value: Record<string, unknown>;
  try {
    value = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return null; // a torn last line while the agent is writing; it is read again next time
  }
  if (value === null || typeof value !== "object") return null;
  const inner = (
    value.type === "message" && typeof value.message === "object" ? value.message : value
  ) as Record<string, unknown>;
  if (inner === null || typeof inner.role !== "string") return null;
  const content = inner.content;
  const text =
    typeof content === "string"
      ? content
      : Array.isArray(content)
        ? content
            .filter(
              (p) => p !== null && typeof p === "object" && p.type === "text" && typeof p.text === "string",
            )
            .map((p) => p.text as string)
            .join("\n")
        : "";
  if (text.trim() === "") return null;
  const timestamp = timestampOf(value.timestamp ?? inner.timestamp);
  return timestamp === undefined ? { role: inner.role, text } : { role: inner.role, text, timestamp };
}

function timestampOf(value: unknown): string | undefined {
  if (typeof value !== "string" && typeof value !== "number") return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}
