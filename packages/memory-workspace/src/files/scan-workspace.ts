// Lists the memory files of a workspace with the stat data the manifest compares.
import type { Dirent } from "node:fs";
import { lstat, readdir, realpath, stat } from "node:fs/promises";
import { join } from "node:path";
import type { Logger } from "@claw/memory-api";
import { linkRefusal } from "./real-path.js";
import { classifyPath, type PathClass, ROOT_DIRS, ROOT_FILES } from "./workspace-paths.js";

/** A memory file sync would not index because of where its links lead. */
export interface RefusedFile {
  path: string;
  reason: string;
}

export interface WorkspaceScan {
  files: ScannedFile[];
  refused: RefusedFile[];
}

export interface ScannedFile extends PathClass {
  /** Workspace-relative, POSIX separators. */
  path: string;
  absPath: string;
  size: number;
  mtimeMs: number;
}

/**
 * MEMORY.md (or memory.md), memory/**, bank/** and the extra paths: Markdown files only, hidden
 * entries skipped, symbolic links followed only to another memory file of the workspace (linkRefusal;
 * never into folders, so a link cannot make the walk loop). Sorted by path; the files refused for
 * their links are listed apart.
 */
export async function scanWorkspace(
  workspaceDir: string,
  extraPaths: readonly string[],
  logger: Logger,
): Promise<WorkspaceScan> {
  const realRoot = await realpath(workspaceDir).catch(() => null);
  if (realRoot === null) return { files: [], refused: [] };
  const found = new Map<string, ScannedFile>();
  const refused: RefusedFile[] = [];
  // On case-insensitive file systems MEMORY.md and memory.md are one file: index it once.
  const seen = new Set<string>();
  const visit = async (relPath: string): Promise<void> => {
    const absPath = join(workspaceDir, relPath);
    const info = await lstat(absPath).catch(() => null);
    if (info === null) return;
    if (info.isDirectory()) {
      let entries: Dirent[];
      try {
        entries = await readdir(absPath, { withFileTypes: true });
      } catch (error) {
        logger.warn("workspace: cannot list a folder", { path: relPath, error: (error as Error).message });
        return;
      }
      for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
        if (entry.name.startsWith(".")) continue;
        await visit(`${relPath}/${entry.name}`);
      }
      return;
    }
    const kind = classifyPath(relPath, extraPaths);
    if (kind === null || found.has(relPath)) return;
    let target = info;
    if (info.isSymbolicLink()) {
      const reason = await linkRefusal(realRoot, absPath, extraPaths);
      if (reason !== undefined) {
        logger.warn("workspace: refused a linked file", { path: relPath, reason });
        refused.push({ path: relPath, reason });
        return;
      }
      const resolved = await stat(absPath).catch(() => null);
      if (resolved === null || !resolved.isFile()) return;
      target = resolved;
    } else if (!info.isFile()) {
      return;
    }
    const identity = `${target.dev}:${target.ino}`;
    if (seen.has(identity)) return;
    seen.add(identity);
    found.set(relPath, { path: relPath, absPath, size: target.size, mtimeMs: target.mtimeMs, ...kind });
  };
  for (const name of [...ROOT_FILES, ...ROOT_DIRS, ...extraPaths]) await visit(name);
  const files = [...found.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, refused };
}
