import type pg from "pg";
import type { Queryable } from "../db/pool.js";

/**
 * A Queryable over `target` that keeps the text of every statement sent through it: a test's
 * check of what a search asked (or how many statements it took).
 */
export function recordingDb(target: { query(sql: string, values?: unknown[]): Promise<pg.QueryResult> }): {
  db: Queryable;
  statements: string[];
} {
  const statements: string[] = [];
  const db: Queryable = {
    query: ((text: string, values?: unknown[]) => {
      statements.push(text);
      return target.query(text, values);
    }) as Queryable["query"],
  };
  return { db, statements };
}
