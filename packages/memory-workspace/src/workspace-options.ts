// The options of createWorkspaceIndex: one declaration of the defaults, one validation.
import { isAbsolute, resolve } from "node:path";
import type { Logger, Memory, TextGenerator } from "@claw/memory-api";
import { MemoryError, silentLogger } from "@claw/memory-api";
import { memoryContextOf } from "@claw/memory-core";
import { toRelativePath } from "./files/workspace-paths.js";

/** Where session transcripts are and when they are indexed again. */
export interface SessionSourceOptions {
  /** Folder of `*.jsonl` transcripts (absolute, or relative to the workspace). */
  dir: string;
  /** Re-index a transcript once it grew by this many bytes. Default 100 000. */
  deltaBytes?: number;
  /** ... or by this many JSONL lines. Default 50. */
  deltaMessages?: number;
}

/** Options of createWorkspaceIndex: the namespace, extra paths, chunking, sessions, watching and logging. */
export interface WorkspaceIndexOptions {
  /** Namespace of the indexed entries. Default "default". */
  namespace?: string;
  /** More Markdown files or folders inside the workspace to index (and allow read() on). */
  extraPaths?: string[];
  /** Chunk size in tokens of ~4 characters. Default 400. */
  chunkTokens?: number;
  /** Tokens repeated between consecutive chunks. Default 80. */
  chunkOverlapTokens?: number;
  /** Watcher quiet time. Default 1500 ms. */
  debounceMs?: number;
  /** Session transcripts to index as "conversation" entries (off unless given). */
  sessions?: SessionSourceOptions;
  /** Phrases entity summaries in reflect(); default the generator createMemory was given. */
  generator?: TextGenerator;
  /** Default the logger createMemory was given, else silent. */
  logger?: Logger;
  /** The clock; default the system's. */
  now?: () => Date;
}

export interface ResolvedOptions {
  workspaceDir: string;
  namespace: string;
  extraPaths: string[];
  chunkTokens: number;
  chunkOverlapTokens: number;
  debounceMs: number;
  sessions: Required<SessionSourceOptions> | null;
  generator: TextGenerator | undefined;
  logger: Logger;
  now: () => Date;
}

/** The defaults of WorkspaceIndexOptions. */
export const DEFAULT_WORKSPACE_OPTIONS = Object.freeze({
  namespace: "default",
  chunkTokens: 400,
  chunkOverlapTokens: 80,
  debounceMs: 1500,
  sessionDeltaBytes: 100_000,
  sessionDeltaMessages: 50,
});

/** Validates the options (INVALID_INPUT naming the option) and fills the defaults. */
export function resolveOptions(
  memory: Memory,
  workspaceDir: string,
  options: WorkspaceIndexOptions = {},
): ResolvedOptions {
  if (memory === null || typeof memory !== "object" || typeof memory.recall !== "function")
    throw MemoryError.invalidInput("memory", "expected a Memory");
  if (typeof workspaceDir !== "string" || workspaceDir.trim() === "")
    throw MemoryError.invalidInput("workspaceDir", "must be a non-empty path");
  const dir = resolve(workspaceDir);
  const context = memoryContextOf(memory);
  const d = DEFAULT_WORKSPACE_OPTIONS;
  const chunkTokens = positiveInteger(options.chunkTokens, "chunkTokens", d.chunkTokens);
  const chunkOverlapTokens = nonNegativeInteger(
    options.chunkOverlapTokens,
    "chunkOverlapTokens",
    Math.min(d.chunkOverlapTokens, chunkTokens - 1),
  );
  if (chunkOverlapTokens >= chunkTokens)
    throw MemoryError.invalidInput("chunkOverlapTokens", `must be less than chunkTokens (${chunkTokens})`);
  return {
    workspaceDir: dir,
    namespace: namespaceOf(options.namespace),
    extraPaths: (options.extraPaths ?? []).map((p, i) => extraPathOf(p, `extraPaths[${i}]`)),
    chunkTokens,
    chunkOverlapTokens,
    debounceMs: nonNegativeInteger(options.debounceMs, "debounceMs", d.debounceMs),
    sessions: options.sessions === undefined ? null : sessionsOf(dir, options.sessions),
    generator: options.generator ?? context?.generator,
    logger: options.logger ?? context?.logger ?? silentLogger,
    now: options.now ?? (() => new Date()),
  };
}

function namespaceOf(value: unknown): string {
  if (value === undefined) return DEFAULT_WORKSPACE_OPTIONS.namespace;
  if (typeof value !== "string" || value.trim() === "" || value === "*")
    throw MemoryError.invalidInput("namespace", 'must be a non-empty string other than "*"');
  return value;
}

/** Extra paths are workspace-relative, so read() can allow them by prefix. */
function extraPathOf(value: unknown, field: string): string {
  if (typeof value !== "string" || value.trim() === "")
    throw MemoryError.invalidInput(field, "must be a non-empty relative path");
  if (isAbsolute(value) || /^[A-Za-z]:[\\/]/.test(value))
    throw MemoryError.invalidInput(field, `must be relative to the workspace, got ${value}`);
  const relative = toRelativePath(value);
  if (relative === null)
    throw MemoryError.invalidInput(field, `must stay inside the workspace, got ${value}`);
  return relative;
}

function sessionsOf(workspaceDir: string, value: SessionSourceOptions): Required<SessionSourceOptions> {
  if (value === null || typeof value !== "object" || typeof value.dir !== "string" || value.dir === "")
    throw MemoryError.invalidInput("sessions.dir", "must be a non-empty path");
  const d = DEFAULT_WORKSPACE_OPTIONS;
  return {
    dir: resolve(workspaceDir, value.dir),
    deltaBytes: nonNegativeInteger(value.deltaBytes, "sessions.deltaBytes", d.sessionDeltaBytes),
    deltaMessages: nonNegativeInteger(value.deltaMessages, "sessions.deltaMessages", d.sessionDeltaMessages),
  };
}

function positiveInteger(value: unknown, field: string, fallback: number): number {
  const n = nonNegativeInteger(value, field, fallback);
  if (n < 1) throw MemoryError.invalidInput(field, "must be at least 1");
  return n;
}

function nonNegativeInteger(value: unknown, field: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0)
    throw MemoryError.invalidInput(field, `must be a non-negative integer, got ${String(value)}`);
  return value;
}
