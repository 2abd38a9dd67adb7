// memory_get: reads one memory file, refusing anything that is not one, each refusal with its reason.
import { readFile, realpath } from "node:fs/promises";
import { isAbsolute, join } from "node:path";
import { MemoryError } from "@claw/memory-api";
import type { ReadOptions, ReadResult } from "../workspace-types.js";
import { linkRefusal } from "./real-path.js";
import { classifyPath } from "./workspace-paths.js";

/** Largest file read() returns; memory files are notes, not data dumps. */
export const MAX_READ_BYTES = 4 * 1024 * 1024;

/**
 * The text of `path` (relative to the workspace), or of `lines` lines from line `from`.
 * Refused: non-strings, absolute paths, `..` segments (INVALID_INPUT), files other than `.md`
 * (INVALID_INPUT), paths outside MEMORY.md, memory/, bank/ and the extra paths (FORBIDDEN), and
 * paths whose links lead anywhere but another memory file of the workspace (FORBIDDEN: the config,
 * dotfiles, files outside). A missing file reads as empty text.
 */
export async function readMemoryFile(
  workspaceDir: string,
  extraPaths: readonly string[],
  path: string,
  options: ReadOptions = {},
): Promise<ReadResult> {
  const relPath = checkPath(path, extraPaths);
  const from = lineNumber(options.from, "from", 1, 1);
  const count = options.lines === undefined ? undefined : lineNumber(options.lines, "lines", 1, 1);
  const absPath = join(workspaceDir, relPath);
  const realRoot = await realpath(workspaceDir).catch(() => null);
  if (realRoot === null) return { path: relPath, text: "", from, to: from - 1 };
  const refusal = await linkRefusal(realRoot, absPath, extraPaths);
  if (refusal !== undefined) throw new MemoryError("FORBIDDEN", `path: ${relPath} is refused: ${refusal}`);
  let text: string;
  try {
    const buffer = await readFile(absPath);
    if (buffer.length > MAX_READ_BYTES)
      throw MemoryError.invalidInput("path", `${relPath} is larger than ${MAX_READ_BYTES} bytes`);
    text = buffer.toString("utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { path: relPath, text: "", from, to: from - 1 };
    if (code === "EISDIR") throw MemoryError.invalidInput("path", `${relPath} is a folder, not a file`);
    if (error instanceof MemoryError) throw error;
    throw new MemoryError("STORAGE", `cannot read ${relPath}: ${(error as Error).message}`, { cause: error });
  }
  const all = text.split(/\r?\n/);
  // A final newline ends the last line; it does not start another one.
  if (all.length > 1 && all[all.length - 1] === "") all.pop();
  const selected = all.slice(from - 1, count === undefined ? undefined : from - 1 + count);
  return { path: relPath, text: selected.join("\n"), from, to: from - 1 + selected.length };
}

/** The workspace-relative POSIX form of `path`, or the reason it is refused. */
function checkPath(path: unknown, extraPaths: readonly string[]): string {
  if (typeof path !== "string" || path.trim() === "")
    throw MemoryError.invalidInput("path", "must be a non-empty path relative to the workspace");
  if (path.includes("\0")) throw MemoryError.invalidInput("path", "must not contain NUL characters");
  if (isAbsolute(path) || /^[A-Za-z]:/.test(path) || path.startsWith("\\"))
    throw MemoryError.invalidInput("path", `must be relative to the workspace, not absolute: ${path}`);
  const segments = path.replace(/\\/g, "/").split("/");
  if (segments.includes(".."))
    throw MemoryError.invalidInput("path", `must not contain '..' segments: ${path}`);
  const relPath = segments.filter((s) => s !== "" && s !== ".").join("/");
  if (!relPath.toLowerCase().endsWith(".md"))
    throw MemoryError.invalidInput("path", `only Markdown (.md) files can be read: ${relPath}`);
  if (classifyPath(relPath, extraPaths) === null) {
    const extra = extraPaths.length > 0 ? `, ${extraPaths.join(", ")}` : "";
    throw new MemoryError(
      "FORBIDDEN",
      `path: ${relPath} is not a memory file (allowed: MEMORY.md, memory/, bank/${extra})`,
    );
  }
  return relPath;
}

function lineNumber(value: unknown, field: string, min: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min)
    throw MemoryError.invalidInput(field, `must be an integer of at least ${min}, got ${String(value)}`);
  return value;
}
