// Which workspace files are memory files, and what category and date each one's entries get.
import type { MemoryCategory } from "@claw/memory-api";

/** The curated long-term file; seed 003 spells it `memory.md`, the user docs `MEMORY.md`. */
export const ROOT_FILES: readonly string[] = ["MEMORY.md", "memory.md"];
/** Folders indexed recursively: daily logs and notes, and the pages reflect() maintains. */
export const ROOT_DIRS: readonly string[] = ["memory", "bank"];
/** The entity pages reflect() writes, where users also declare aliases. */
export const ENTITIES_DIR = "bank/entities";
/** Files not indexed: session summaries and derived state live in hidden folders. */
export const CATEGORY_NOTE = "note";

// `2025-11-27.md`, and the `2025-11-27-standup.md` form session hooks write.
const DATED_NAME = /^(\d{4})-(\d{2})-(\d{2})(?:[-_ .][^/]*)?\.md$/;

export interface PathClass {
  category: MemoryCategory;
  /** YYYY-MM-DD for daily files. */
  date?: string;
}

/**
 * A workspace-relative path with POSIX separators, or null when it leaves the workspace.
 * `.` segments and repeated slashes are dropped; `..` anywhere is refused rather than resolved,
 * so `memory/../secret.md` never reads as `secret.md`.
 */
export function toRelativePath(path: string): string | null {
  const parts: string[] = [];
  for (const part of path.replace(/\\/g, "/").split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") return null;
    parts.push(part);
  }
  return parts.length === 0 ? null : parts.join("/");
}

/** The category of a memory file's entries, or null when `relPath` is not a memory file. */
export function classifyPath(relPath: string, extraPaths: readonly string[]): PathClass | null {
  if (!relPath.toLowerCase().endsWith(".md")) return null;
  if (ROOT_FILES.includes(relPath)) return { category: "core" };
  if (relPath.startsWith("bank/")) return { category: "core" };
  const inMemoryDir = relPath.startsWith("memory/");
  if (!inMemoryDir && !extraPaths.some((extra) => isInside(relPath, extra))) return null;
  const date = dateOfName(relPath);
  return date === undefined ? { category: CATEGORY_NOTE } : { category: "daily", date };
}

/** True for the path itself or anything below it. */
export function isInside(relPath: string, root: string): boolean {
  return relPath === root || relPath.startsWith(`${root}/`);
}

/** YYYY-MM-DD when the file name starts with a valid calendar date. */
export function dateOfName(relPath: string): string | undefined {
  const name = relPath.slice(relPath.lastIndexOf("/") + 1);
  const match = DATED_NAME.exec(name);
  if (match === null) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return `${match[1]}-${match[2]}-${match[3]}`;
}

/** A daily file's timestamp: its day at 00:00 UTC, so `since`/`until` by date are exact. */
export function dayTimestamp(date: string): string {
  return `${date}T00:00:00.000Z`;
}
