// Imports an NDJSON stream of any size in constant memory: lines are parsed one by one, checked
// with core's validateEntries and the caller's scope, and written chunk by chunk (one transaction
// each). A bad line is skipped and reported by its line number; the good ones are imported. The
// history lines of a PostgreSQL backup (`{"history": …}`) are skipped and counted.
import type { Memory, MemoryEntry } from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";
import { isHistoryLine, type MemorySettings, validateEntries } from "@claw/memory-core";
import { readNdjsonLines } from "./ndjson-lines.js";

export interface LineError {
  line: number;
  code: string;
  message: string;
}

export interface ImportReport {
  /** Entries written (0 in a dry run). */
  imported: number;
  /** Lines that passed every check. */
  accepted: number;
  /** Lines refused. */
  rejected: number;
  /** The first refused lines, in line order (see `errorsTruncated`). */
  errors: LineError[];
  errorsTruncated: boolean;
  dryRun: boolean;
  /** History lines of a PostgreSQL backup, skipped (`claw-memory restore` puts them back); absent: none. */
  historySkipped?: number;
}

export interface ImportNdjsonOptions {
  settings: MemorySettings;
  /** The current provider's dimensions: vectors of another length are dropped and re-embedded. */
  dimensions?: number;
  maxLineBytes: number;
  chunkSize: number;
  errorsReported: number;
  /** For lines that name no namespace. */
  defaultNamespace: string;
  /** The caller's scope. */
  mayUse(namespace: string): boolean;
  onConflict?: "replace" | "skip";
  dryRun?: boolean;
  /** Who imports, recorded in the history of every entry written (default the memory's actor). */
  actor?: string;
}

type Pending = { line: number; entry: Partial<MemoryEntry> };

export async function importNdjson(
  memory: Memory,
  source: AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
  options: ImportNdjsonOptions,
): Promise<ImportReport> {
  const report: ImportReport = {
    imported: 0,
    accepted: 0,
    rejected: 0,
    errors: [],
    errorsTruncated: false,
    dryRun: options.dryRun === true,
  };
  // Keeps the lowest line numbers: a chunk's validation errors arrive after later lines' parse errors.
  const reject = (line: number, code: string, message: string) => {
    report.rejected += 1;
    report.errors.push({ line, code, message });
    report.errors.sort((a, b) => a.line - b.line);
    if (report.errors.length > options.errorsReported) {
      report.errors.length = options.errorsReported;
      report.errorsTruncated = true;
    }
  };

  let chunk: Pending[] = [];
  const flush = async () => {
    const problems = validateEntries(
      chunk.map((p) => p.entry),
      options.settings,
      options.dimensions,
    );
    const bad = new Set<number>();
    for (const { index, error } of problems) {
      bad.add(index);
      // The message names the field within the entry ("content: …"); the line says which entry.
      reject(chunk[index]!.line, error.code, error.message);
    }
    const good = chunk.filter((_, index) => !bad.has(index)).map((p) => p.entry);
    report.accepted += good.length;
    if (!report.dryRun && good.length > 0) {
      report.imported += await memory.import(good, {
        onConflict: options.onConflict ?? "replace",
        ...(options.actor === undefined ? {} : { actor: options.actor }),
      });
    }
    chunk = [];
  };

  for await (const line of readNdjsonLines(source, options.maxLineBytes)) {
    if (line.tooLong) {
      reject(line.number, "PAYLOAD_TOO_LARGE", `the line is over the limit of ${options.maxLineBytes} bytes`);
      continue;
    }
    if (line.text.trim() === "") continue;
    const parsed = parseLine(line.text);
    if (parsed instanceof MemoryError) {
      reject(line.number, parsed.code, parsed.message);
      continue;
    }
    if (isHistoryLine(parsed)) {
      report.historySkipped = (report.historySkipped ?? 0) + 1;
      continue;
    }
    const namespace = parsed.namespace ?? options.defaultNamespace;
    if (typeof namespace === "string" && !options.mayUse(namespace)) {
      reject(line.number, "FORBIDDEN", `this token may not use the namespace ${JSON.stringify(namespace)}`);
      continue;
    }
    chunk.push({ line: line.number, entry: { ...parsed, namespace } });
    if (chunk.length >= options.chunkSize) await flush();
  }
  if (chunk.length > 0) await flush();
  return report;
}

function parseLine(text: string): Partial<MemoryEntry> | MemoryError {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return MemoryError.invalidInput("line", `invalid JSON (${(error as Error).message})`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return MemoryError.invalidInput("line", "expected a JSON object (one entry per line)");
  }
  return value as Partial<MemoryEntry>;
}
