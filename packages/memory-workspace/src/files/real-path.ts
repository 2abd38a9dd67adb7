import { lstat, readlink, realpath } from "node:fs/promises";
import { dirname, relative, resolve, sep } from "node:path";
import { classifyPath } from "./workspace-paths.js";

/**
 * Why the memory file at `absPath` may not be read or indexed, or undefined when it may: with
 * every link resolved it must still be a Markdown memory file (MEMORY.md, memory/, bank/ or an
 * extra path) of this workspace, and nothing hidden. A link to the config file, a dotfile or any
 * other file of the workspace is refused as surely as one leading out of it.
 */
export async function linkRefusal(
  realRoot: string,
  absPath: string,
  extraPaths: readonly string[],
): Promise<string | undefined> {
  const resolved = await resolveExisting(absPath, 0);
  if (resolved === null) return "its links cannot be resolved";
  const inside =
    resolved === realRoot || resolved.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep);
  if (!inside) return "it is a link leading out of the workspace";
  const target = relative(realRoot, resolved).split(sep).join("/");
  if (target.split("/").some((part) => part.startsWith(".")))
    return `it is a link to a hidden file (${target})`;
  if (classifyPath(target, extraPaths) === null)
    return `it is a link to ${target}, which is not a memory file`;
  return undefined;
}

/**
 * True when `absPath`, with every symbolic link resolved, lies inside `realRoot` (itself resolved).
 * A path that does not exist yet is judged by its nearest existing ancestor, and a dangling link by
 * where it points, so nothing missing can stand in for a place outside the workspace.
 */
export async function isInsideReal(realRoot: string, absPath: string): Promise<boolean> {
  const resolved = await resolveExisting(absPath, 0);
  if (resolved === null) return false;
  return resolved === realRoot || resolved.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep);
}

async function resolveExisting(absPath: string, depth: number): Promise<string | null> {
  if (depth > 40) return null; // a chain of dangling links this long is a loop
  let current = absPath;
  const rest: string[] = [];
  for (;;) {
    try {
      const real = await realpath(current);
      return rest.length === 0 ? real : [real, ...rest.reverse()].join(sep);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // ENOENT: a dangling link is followed by hand, a missing name judged by its parent;
      // anything else (a loop, no permission) cannot be shown to be inside.
      if (code !== "ENOENT" && code !== "ENOTDIR") return null;
      const link = await lstat(current).catch(() => null);
      if (link?.isSymbolicLink()) {
        const target = resolve(dirname(current), await readlink(current));
        return resolveExisting(
          rest.length === 0 ? target : [target, ...[...rest].reverse()].join(sep),
          depth + 1,
        );
      }
      const parent = dirname(current);
      if (parent === current) return null;
      rest.push(current.slice(parent.length + (parent.endsWith(sep) ? 0 : 1)));
      current = parent;
    }
  }
}
