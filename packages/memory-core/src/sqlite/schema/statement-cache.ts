import type { Database, Statement } from "better-sqlite3";

/**
 * Prepared statements keyed by their SQL. Filters make some queries' text vary (a few shapes
 * each), so they are prepared on first use and reused after, never re-parsed per call.
 */
export interface StatementCache {
  get(sql: string): Statement;
  clear(): void;
}

export function createStatementCache(db: Database, maxEntries = 256): StatementCache {
  const cache = new Map<string, Statement>();
  return {
    get(sql) {
      let statement = cache.get(sql);
      if (statement === undefined) {
        if (cache.size >= maxEntries) {
          const oldest = cache.keys().next().value;
          if (oldest !== undefined) cache.delete(oldest);
        }
        statement = db.prepare(sql);
        cache.set(sql, statement);
      }
      return statement;
    },
    clear: () => cache.clear(),
  };
}
