import type { StatementCache } from "../schema/statement-cache.js";

/**
 * What a connection caches from the full-text index (bm25-postings.ts) must follow every write of
 * it, and every write goes through fts-index.ts, which notes it here:
 * - an insert (a new entry's row) only adds: what was read of the older rows stays true;
 * - a rewrite (a row replaced or removed, or the index rebuilt) can change anything read. It is
 *   counted in `meta`, in the writing transaction, so that other connections and processes see it
 *   with the commit (`PRAGMA data_version` tells them that something was committed, not what).
 * This connection's own writes do not move its data_version: they are counted in memory too.
 */
export type FullTextChange = "insert" | "rewrite";

const REWRITES_KEY = "fts_rewrites";

const changes = new WeakMap<StatementCache, number>();

export function noteFullTextChange(statements: StatementCache, change: FullTextChange): void {
  changes.set(statements, (changes.get(statements) ?? 0) + 1);
  if (change === "rewrite") {
    statements
      .get(
        `INSERT INTO meta(key, value) VALUES ('${REWRITES_KEY}', '1')
         ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1`,
      )
      .run();
  }
}

/** Writes of the index this connection has made (of either kind). */
export function fullTextChanges(statements: StatementCache): number {
  return changes.get(statements) ?? 0;
}

/** Rewrites of the index committed by any connection, as this one sees them now. */
export function fullTextRewrites(statements: StatementCache): number {
  const value = statements.get(`SELECT value FROM meta WHERE key = '${REWRITES_KEY}'`).pluck().get();
  return value === undefined ? 0 : Number(value);
}
