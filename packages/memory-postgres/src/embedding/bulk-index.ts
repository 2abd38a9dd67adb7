import type { Logger } from "@claw/memory-api";
import { withSchemaLock } from "../db/migrate.js";
import type { Pool, Queryable } from "../db/pool.js";
import type { SqlNames } from "../db/sql-names.js";
import type { IndexBuilds } from "./index-builds.js";
import { dropHnswIndex, type VectorSearch } from "./vector-index.js";

/**
 * Entries in one write, at least, for it to be a bulk import; and the table must hold fewer than
 * BULK_TABLE_SHARE times as many rows. pgvector inserts into an HNSW graph one row at a time
 * (~1.5 ms a row at 100k × 64 dims on a 2-core machine); a graph built over the loaded rows costs a
 * fraction of that per row: 100k rows with vectors imported in ~5 min with the index (318–345/s),
 * in 79 s without it plus 22 s to build it (2026-11-29, 2.6–3.1×). Building over rows already
 * indexed is wasted work, hence the share.
 */
const BULK_MIN_WRITES = 500;
const BULK_TABLE_SHARE = 4;
/** Without a bulk write for this long, the index is built again (flush() and close() do it at once). */
const DEFAULT_IDLE_MS = 5_000;

export const BULK_WARNING =
  "the vector index is set aside while a bulk import writes: vector recall scans every vector until flush(), close() or a few seconds without a bulk write build it again";

/**
 * Sets the HNSW index aside while a bulk import fills a small table, and builds it again once the
 * import is over, concurrently (writes and recalls go on; recalls scan the vectors exactly
 * meanwhile, and status() says so). A process killed in between leaves the table without its
 * index, or with an invalid one: the next open builds it (ensureHnswIndex).
 */
export interface BulkIndex {
  /** Before a write of `count` entries: sets the index aside for a bulk import into a small table. */
  beforeWrite(count: number): Promise<void>;
  /** Before any other write (a batch of vectors): the idle time stops while it runs. */
  pause(): void;
  /** After a write, done or failed: the idle time counts from here. */
  afterWrite(): void;
  /** Builds the index again if it was set aside (Memory.flush(), close()). */
  rebuild(): Promise<void>;
  /** Stops the idle timer and builds the index if it is still aside. */
  close(): Promise<void>;
}

export interface BulkIndexOptions {
  pool: Pool;
  db: Queryable;
  names: SqlNames;
  search: VectorSearch | null;
  /** The store's warnings (status()): the bulk warning is there while the index is aside. */
  warnings: string[];
  logger: Logger;
  /** Builds the index again (the store's memory cap; whether the graph fit, in status()). */
  indexBuilds: IndexBuilds;
  /** How long without a bulk or vector write before the index is built again (default 5 s). */
  idleMs?: number;
}

export function createBulkIndex(options: BulkIndexOptions): BulkIndex {
  const { pool, db, names, search, warnings, logger, indexBuilds } = options;
  const idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
  let aside = false;
  /** Set when the index cannot be dropped here (not its owner): bulk imports keep it. */
  let disabled = false;
  let building: Promise<void> | null = null;
  let timer: NodeJS.Timeout | undefined;
  const indexed = search?.kind === "pgvector" && search.index !== null;

  function arm(): void {
    clearTimeout(timer);
    timer = setTimeout(() => {
      rebuild().catch(() => {});
    }, idleMs);
    timer.unref();
  }

  async function tableRows(): Promise<number> {
    const { rows } = await db.query<{ rows: number }>(
      `SELECT greatest(reltuples, 0)::float8 AS rows FROM pg_class WHERE oid = '${names.memories}'::regclass`,
    );
    return Number(rows[0]?.rows ?? 0);
  }

  async function beforeWrite(count: number): Promise<void> {
    if (!indexed || search === null || disabled) return;
    // The idle time runs between writes: a long one is not taken for the end of the import.
    clearTimeout(timer);
    if (aside || count < BULK_MIN_WRITES || building !== null) return;
    // Set before the first await: two imports starting at once set the index aside once.
    aside = true;
    try {
      if ((await tableRows()) >= count * BULK_TABLE_SHARE) {
        aside = false;
        return;
      }
      await withSchemaLock(pool, names, (client) => dropHnswIndex(client, names, search));
    } catch (error) {
      // A role that does not own the index cannot drop it: imports keep it, as before.
      aside = false;
      disabled = true;
      logger.debug("cannot set the vector index aside for bulk imports", { error: (error as Error).message });
      return;
    }
    warnings.push(BULK_WARNING);
    logger.debug("vector index set aside for a bulk import", { entries: count });
  }

  function replaceWarning(next: string | null): void {
    const at = warnings.indexOf(BULK_WARNING);
    if (at >= 0) warnings.splice(at, 1);
    if (next !== null) warnings.push(next);
  }

  function rebuild(): Promise<void> {
    clearTimeout(timer);
    if (!aside || search === null) return building ?? Promise.resolve();
    aside = false;
    building ??= (async () => {
      try {
        await withSchemaLock(pool, names, (client) =>
          indexBuilds.ensure(client, search, { concurrently: true }),
        );
        logger.debug("vector index built again after a bulk import");
        replaceWarning(null);
      } catch (error) {
        // The next open builds it (a missing or invalid index is rebuilt there).
        const reason = `the vector index could not be built again after a bulk import (${(error as Error).message}): vector recall scans every vector until the store is opened again`;
        replaceWarning(reason);
        logger.warn(reason);
      } finally {
        building = null;
      }
    })();
    return building;
  }

  return {
    beforeWrite,
    pause: () => clearTimeout(timer),
    afterWrite: () => {
      if (aside) arm();
    },
    rebuild,
    close: rebuild,
  };
}
