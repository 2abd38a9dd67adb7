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
