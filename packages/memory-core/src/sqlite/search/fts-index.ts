import type { Logger } from "@claw/memory-api";
import { entryContext } from "../../text/entry-context.js";
import type { StatementCache } from "../schema/statement-cache.js";
import { noteFullTextChange } from "./full-text-changes.js";

/**
 * The only code that writes memories_fts; every caller runs inside the transaction that writes the
 * memories rows. The index is kept in application code rather than by triggers: a trigger makes
 * each statement open a statement savepoint, and FTS5 flushes its pending-terms buffer at every
 * savepoint, which loses the batching of a bulk write (an insert cost ~3× as much with the trigger).
 *
 * The indexed body is `fts_text` (content with CJK runs as bigrams) when set, the content otherwise;
 * the context column holds the entry's date and, for a conversation turn, the turn before it
 * (session-turns.ts), ranked at half the weight of the other columns (COLUMN_WEIGHTS).
 */

/** The index's columns, in its order (schema.ts). */
export const FTS_COLUMNS = ["key", "body", "context"] as const;

/** bm25 weights of FTS_COLUMNS, in that order (the index's persistent `rank`). */
export const COLUMN_WEIGHTS = [1, 1, 0.5] as const;

export function indexFullText(
  statements: StatementCache,
  rid: number,
  key: string,
  body: string,
  context: string,
): void {
  noteFullTextChange(statements, "insert");
  statements
    .get("INSERT INTO memories_fts(rowid, key, body, context) VALUES (?, ?, ?, ?)")
    .run(rid, key, body, context);
}

/** For a row whose key, indexed text or context changed. */
export function reindexFullText(
  statements: StatementCache,
  rid: number,
  key: string,
  body: string,
  context: string,
): void {
  noteFullTextChange(statements, "rewrite");
  statements.get("DELETE FROM memories_fts WHERE rowid = ?").run(rid);
  indexFullText(statements, rid, key, body, context);
}

/**
 * Drops the index rows of the memories matching `where` (on `memories m`); must run before those
 * rows are deleted, while the condition can still find them.
 */
export function unindexFullTextWhere(statements: StatementCache, where: string, params: unknown[]): void {
  noteFullTextChange(statements, "rewrite");
  statements
    .get(`DELETE FROM memories_fts WHERE rowid IN (SELECT m.rid FROM memories m WHERE ${where})`)
    .run(...params);
}

/**
 * FTS5 buffers new terms in a hash table until a commit, or until they take this many bytes (1 MB
 * by default). The table keeps its largest size for the life of the connection and every later
 * flush walks all of it: after a bulk import with the default, each store() on that connection cost
 * ~40 µs more (0.17 ms instead of 0.13). 256 KB keeps that away for ~3% of bulk import speed.
 */
const PENDING_TERMS_BYTES = 262_144;

const RANK = `bm25(${COLUMN_WEIGHTS.join(", ")})`;

/** Sets the index's persistent options; writes only when they differ from the stored ones. */
export function configureFullTextIndex(statements: StatementCache): void {
  const stored = new Map(
    (statements.get("SELECT k, v FROM memories_fts_config").raw().all() as [string, unknown][]).map(
      ([k, v]) => [k, v],
    ),
  );
  // FTS5 takes option values as literals only; these are constants.
  if (stored.get("hashsize") !== PENDING_TERMS_BYTES) {
    statements
      .get(`INSERT INTO memories_fts(memories_fts, rank) VALUES ('hashsize', ${PENDING_TERMS_BYTES})`)
      .run();
  }
  // The `rank` column ranks with these column weights too (searches call bm25() with them).
  if (stored.get("rank") !== RANK) {
    statements.get(`INSERT INTO memories_fts(memories_fts, rank) VALUES ('rank', '${RANK}')`).run();
  }
}

/** Empties the index and fills it again from every memories row, contexts included. */
export function rebuildFullTextIndex(statements: StatementCache): void {
  noteFullTextChange(statements, "rewrite");
  statements.get("INSERT INTO memories_fts(memories_fts) VALUES ('delete-all')").run();
  const insert = statements.get("INSERT INTO memories_fts(rowid, key, body, context) VALUES (?, ?, ?, ?)");
  // The previous turn of each session turn comes from a window over the session's order.
  const rows = statements
    .get(
      `SELECT rid, key, coalesce(fts_text, content), created_at,
         CASE WHEN session_id IS NULL THEN NULL ELSE lag(coalesce(fts_text, content))
           OVER (PARTITION BY namespace, session_id ORDER BY created_at, rid) END, context
       FROM memories`,
    )
    .raw()
    .all() as [number, string, string, string, string | null, string | null][];
  for (const [rid, key, body, createdAt, previous, extra] of rows) {
    insert.run(rid, key, body, entryContext(createdAt, previous, extra));
  }
}

/** Counts the entries a store changed and merges the full-text index when enough have. */
export interface IndexMerge {
  changed(entries: number): void;
}

/** Changes before the first merge, and at least between two. */
const MERGE_AFTER_MIN = 1_000;
/** Pages written per step of an incremental merge: about 4 ms each (43 steps at 100k entries). */
const MERGE_STEP_PAGES = 50;

/**
 * Writes and deletes leave the full-text index in many segments, with deleted rows in them, and
 * every query reads each term through all of them: after 12k stores and deletes on 10k entries,
 * server recalls/s fell by a sixth. Once a store has changed 1 000 entries, or a tenth of its size
 * if that is more (so merging costs O(1) per change), the segments are merged into one:
 * - by the call that crossed the line, when it changed that many entries itself (a bulk import,
 *   already a long call: 12 ms more at 10k entries, ~100 ms at 100k);
 * - otherwise a step at a time (FTS5's incremental optimize, ~4 ms a step), one step after each
 *   later write, so that no single store() pays for the whole merge (at 100k entries: 43 steps,
 *   161 ms in all, instead of one store paying 100 ms).
 * A failed merge only costs speed: it is logged, never thrown.
 */
export function createIndexMerge(statements: StatementCache, logger: Logger): IndexMerge {
  let since = 0;
  let due = MERGE_AFTER_MIN;
  /** An incremental merge under way: when it began, the changes that started it, steps taken. */
  let merging: { started: number; changes: number; entries: number; steps: number } | null = null;
  const merge = (pages: number) =>
    statements.get("INSERT INTO memories_fts(memories_fts, rank) VALUES ('merge', ?)").run(pages);
  const totalChanges = () => statements.get("SELECT total_changes()").pluck().get() as number;

  const done = (details: { changes: number; entries: number; ms: number; steps?: number }) =>
    logger.debug("full-text index merged", details);

  /** One more step of the incremental merge; FTS5 writes (almost) nothing once it is complete. */
  function step(): void {
    if (merging === null) return;
    const before = totalChanges();
    merge(MERGE_STEP_PAGES);
    merging.steps++;
    if (totalChanges() - before >= 2) return;
    const { started, changes, entries, steps } = merging;
    merging = null;
    done({ changes, entries, ms: Math.round(performance.now() - started), steps });
  }

  return {
    changed(entries) {
      try {
        step();
        since += entries;
        if (since < due) return;
        const size = statements.get("SELECT count(*) FROM memories").pluck().get() as number;
        due = Math.max(MERGE_AFTER_MIN, Math.ceil(size / 10));
        if (since < due) return;
        const started = performance.now();
        if (entries >= MERGE_AFTER_MIN) {
          merging = null;
          statements.get("INSERT INTO memories_fts(memories_fts) VALUES ('optimize')").run();
          done({ changes: since, entries: size, ms: Math.round(performance.now() - started) });
        } else {
          // A negative page count starts an incremental optimize; later steps continue it.
          merge(-MERGE_STEP_PAGES);
          merging = { started, changes: since, entries: size, steps: 1 };
          logger.debug("full-text index merge started", { changes: since, entries: size });
        }
        since = 0;
      } catch (error) {
        merging = null;
        logger.debug("full-text index merge skipped", { error: (error as Error).message });
      }
    },
  };
}
