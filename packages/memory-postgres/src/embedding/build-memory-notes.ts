import type { Logger } from "@claw/memory-api";
import { buildMemoryWarning, type IndexBuild } from "./vector-index.js";

/**
 * Whether the vector index's last build fit in its memory, in the store's warnings (status()): a
 * build that did not fit leaves its warning there, with one logged warning, until a build fits.
 */
export interface BuildMemoryNotes {
  /** After ensureHnswIndex: its build, or null when it built nothing (the note stays as it was). */
  record(build: IndexBuild | null): void;
}

export function createBuildMemoryNotes(warnings: string[], logger: Logger): BuildMemoryNotes {
  let current: string | null = null;
  return {
    record(build) {
      if (build === null) return;
      const next = buildMemoryWarning(build);
      if (current !== null) {
        const at = warnings.indexOf(current);
        if (at >= 0) warnings.splice(at, 1);
      }
      if (next !== null) {
        warnings.push(next);
        if (current === null) logger.warn(next, { ...build });
      }
      current = next;
    },
  };
}
