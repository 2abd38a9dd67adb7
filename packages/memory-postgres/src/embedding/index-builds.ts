import type { Logger } from "@claw/memory-api";
import type { Queryable } from "../db/pool.js";
import type { SqlNames } from "../db/sql-names.js";
import { buildMemoryWarning, ensureHnswIndex, type VectorSearch } from "./vector-index.js";

/**
 * The store's HNSW builds (at open, and after a bulk import): ensureHnswIndex with the store's
 * memory cap, and whether the last build fit in it, in the store's warnings (status()). A build
 * that did not fit leaves its warning there, with one logged warning, until a build fits.
 */
export interface IndexBuilds {
  /** Builds the index if it is missing (ensureHnswIndex); must run under the schema lock. */
  ensure(client: Queryable, search: VectorSearch, options?: { concurrently?: boolean }): Promise<void>;
}

export function createIndexBuilds(options: {
  names: SqlNames;
  /** Most memory (MB) a build asks for (indexBuildMemoryMb). */
  maxMemoryMb: number;
  warnings: string[];
  logger: Logger;
}): IndexBuilds {
  const { names, maxMemoryMb, warnings, logger } = options;
  let current: string | null = null;
  return {
    async ensure(client, search, { concurrently } = {}) {
      const build = await ensureHnswIndex(client, names, search, { concurrently, maxMemoryMb });
      // Nothing built: the note stays as it was.
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
