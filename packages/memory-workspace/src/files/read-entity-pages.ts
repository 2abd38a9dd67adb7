// Reads the entity pages (bank/entities/*.md) of a workspace, never following links out of it.
import type { Dirent } from "node:fs";
import { readdir, readFile, realpath, stat } from "node:fs/promises";
import { join } from "node:path";
import type { Logger } from "@claw/memory-api";
import { MAX_READ_BYTES } from "./read-memory-file.js";
import { isInsideReal, linkRefusal } from "./real-path.js";
import { ENTITIES_DIR } from "./workspace-paths.js";

export interface EntityPageFile {
  /** Workspace-relative, POSIX separators: `bank/entities/<file>.md`. */
  path: string;
  text: string;
}

/**
 * The `.md` files directly in bank/entities, sorted by path (code unit order). Hidden files,
 * folders, files larger than MAX_READ_BYTES and anything whose links lead out of the workspace are
 * skipped; a missing folder is no pages. Unreadable files are skipped with a debug message (sync
 * reports them as errors).
 */
export async function readEntityPages(workspaceDir: string, logger: Logger): Promise<EntityPageFile[]> {
  const realRoot = await realpath(workspaceDir).catch(() => null);
  if (realRoot === null) return [];
  const dirAbs = join(workspaceDir, ENTITIES_DIR);
  if (!(await isInsideReal(realRoot, dirAbs))) return [];
  let entries: Dirent[];
  try {
    entries = await readdir(dirAbs, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR")
      logger.debug("entity aliases: cannot list the entity pages", { error: (error as Error).message });
    return [];
  }
  const names = entries
    .map((entry) => entry.name)
    .filter((name) => !name.startsWith(".") && name.toLowerCase().endsWith(".md"))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const pages: EntityPageFile[] = [];
  for (const name of names) {
    const path = `${ENTITIES_DIR}/${name}`;
    const absPath = join(dirAbs, name);
    try {
      if ((await linkRefusal(realRoot, absPath, [])) !== undefined) continue;
      const info = await stat(absPath);
      if (!info.isFile() || info.size > MAX_READ_BYTES) continue;
      pages.push({ path, text: await readFile(absPath, "utf8") });
    } catch (error) {
      logger.debug("entity aliases: cannot read an entity page", { path, error: (error as Error).message });
    }
  }
  return pages;
}
