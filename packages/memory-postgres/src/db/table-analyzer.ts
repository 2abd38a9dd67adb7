import type { Logger } from "@claw/memory-api";
import type { Queryable } from "./pool.js";
import type { SqlNames } from "./sql-names.js";

/**
 * Changed rows before an ANALYZE, at least; otherwise as many as the table held when last analysed
 * (it doubled). A bulk import of 100k entries analyses 7 times: 1.9 s of its ~20 s, against 11
 * times and 3.5 s with half (and ~25 times with a tenth, 22 % of an import at 20k). Plans need the
 * order of magnitude; the end of a bulk operation (settle) looks closer.
 */
const ANALYZE_AFTER_MIN = 1_000;
const ANALYZE_AFTER_SHARE = 1;
const SETTLE_AFTER_SHARE = 0.1;
/**
 * How long ANALYZE waits for the table's lock before it is put off to the next write: less than
 * the server's deadlock_timeout (1 s by default), so ANALYZE gives way before a deadlock check
 * could cancel the other side.
 */
const LOCK_TIMEOUT = "500ms";
/** SQLSTATE lock_not_available: lock_timeout ran out. */
const LOCK_NOT_AVAILABLE = "55P03";

export interface TableAnalyzer {
  /** Counts rows written, deleted or given a vector; analyses the table once enough have. Never rejects. */
  changed(rows: number): Promise<void>;
  /**
   * At the end of a bulk operation (a backfill): analyses when what changed since the last ANALYZE
   * is a tenth of the table or more, however few rows that is. Never rejects.
   */
  settle(): Promise<void>;
}

/**
 * Keeps the planner's statistics of the memories table current. Without them (a bulk import or a
 * migrate into a new table, a backfill that gave every row its vector) PostgreSQL estimates one row,
 * or no row with a vector, and answers vector queries with an exact scan instead of the HNSW index:
 * 24 ms instead of 1.4 ms per query at 10k rows. Autovacuum gets there eventually (after a minute,
 * on a real server; never on PGlite); this runs ANALYZE after the write that crossed the line,
 * before that write returns. One ANALYZE at a time; a failure is logged once and ends the
 * analysing (a role that does not own the table gets no error: PostgreSQL skips it with a notice).
 */
export function createTableAnalyzer(db: Queryable, names: SqlNames, logger: Logger): TableAnalyzer {
  let changes = 0;
  let analysedRows: number | null = null;
  let running: Promise<void> | null = null;
  let disabled = false;

  /** What the table held when it was last analysed, by anyone (never: 0). */
  async function readAnalysedRows(): Promise<number> {
    const { rows } = await db.query<{ rows: number }>(
      `SELECT greatest(reltuples, 0)::float8 AS rows FROM pg_class WHERE oid = '${names.memories}'::regclass`,
    );
    return Number(rows[0]?.rows ?? 0);
  }

  /** Whether the tables were analysed; false when a lock held elsewhere made it wait too long. */
  async function analyze(): Promise<boolean> {
    try {
      // The embedding cache grows with the vectors: without statistics, its lookup by hash read
      // every row of the provider (the planner took the table for one row): 4–7 ms at 5–10k.
      // An index built concurrently (the vector index after a bulk import) holds the table's lock
      // and waits for this very transaction to end: ANALYZE waiting for the lock deadlocked with
      // it, and the build was lost (1M rows: 8 minutes). So ANALYZE gives up after LOCK_TIMEOUT.
      await db.query(
        `DO $analyze$ BEGIN SET LOCAL lock_timeout = '${LOCK_TIMEOUT}'; ANALYZE ${names.memories}, ${names.cache}; END $analyze$`,
      );
      analysedRows = await readAnalysedRows();
      await mergePendingEntries();
      await summarizeNewRanges();
      return true;
    } catch (error) {
      if ((error as { code?: string }).code === LOCK_NOT_AVAILABLE) {
        logger.debug("ANALYZE put off: the memories table is locked (an index build)", {
          error: (error as Error).message,
        });
        return false;
      }
      disabled = true;
      logger.warn("cannot ANALYZE the memories table: vector queries may scan instead of using the index", {
        error: (error as Error).message,
      });
      return true;
    }
  }

  /**
   * The full-text index's pending list merged into the index. A GIN index takes new rows into an
   * unsorted list that every search reads whole until autovacuum merges it (up to 4 MB): at 20k
   * rows just imported, keyword recall p50 was 38 ms with it and 8.8 ms merged. Only the index's
   * owner may merge it; others wait for autovacuum.
   */
  async function mergePendingEntries(): Promise<void> {
    try {
      await db.query(`SELECT gin_clean_pending_list('${names.schema}.claw_memories_fts'::regclass)`);
    } catch (error) {
      logger.debug("cannot merge the full-text index's pending entries", { error: (error as Error).message });
    }
  }

  /**
   * The rid index's summaries of the block ranges written since it last summarized them. A BRIN
   * index keeps no summary of a range until something summarizes it (VACUUM, or autovacuum soon
   * after with autosummarize, schema 9), and a range without one matches every query: a keyword
   * pass over the newest 11k of 1M entries just imported read the last 223k rows' pages
   * (4,394 pages, 25k rows tested; 19k rows and 372 pages summarized). Only the index's owner may
   * summarize; others wait for autovacuum.
   */
  async function summarizeNewRanges(): Promise<void> {
    try {
      await db.query(
        `SELECT brin_summarize_new_values('${names.schema}.claw_memories_rid_recent'::regclass)`,
      );
    } catch (error) {
      logger.debug("cannot summarize the rid index's new block ranges", { error: (error as Error).message });
    }
  }

  async function due(minimum: number, share: number): Promise<boolean> {
    analysedRows ??= await readAnalysedRows();
    return changes > 0 && changes >= Math.max(minimum, analysedRows * share);
  }

  /** Never throws: the write that called it has committed, and statistics only cost speed. */
  async function analyzeIfDue(minimum: number, share: number): Promise<void> {
    try {
      if (!(await due(minimum, share))) return;
    } catch (error) {
      logger.debug("cannot read the memories table's statistics", { error: (error as Error).message });
      return;
    }
    const counted = changes;
    changes = 0;
    // Put off: the changes count again towards the next try.
    if (!(await analyze())) changes += counted;
  }

  /** One check or ANALYZE at a time; changes counted meanwhile wait for the next call. */
  function run(minimum: number, share: number): Promise<void> {
    if (disabled) return Promise.resolve();
    running ??= analyzeIfDue(minimum, share).finally(() => {
      running = null;
    });
    return running;
  }

  return {
    changed(rows) {
      if (rows <= 0) return Promise.resolve();
      changes += rows;
      return run(ANALYZE_AFTER_MIN, ANALYZE_AFTER_SHARE);
    },
    async settle() {
      // A check already under way may have started before the last changes were counted.
      await running;
      await run(0, SETTLE_AFTER_SHARE);
    },
  };
}
