import { join } from "node:path";
import Database from "better-sqlite3";
import type { Conversation } from "../locomo-loader.js";
import { fileSafe, type RetrievalEngine, turnContent } from "./engine.js";

/**
 * The naive baseline: SQLite FTS5 with its default tokenizer (unicode61, no stemming), the
 * question's words OR-ed, ranked by bm25(). No stop words are removed, so "what", "did" and
 * "the" weigh in like any other word: the gap to claw-bm25 is what query building buys.
 */
export function createFts5Baseline(workDir: string): RetrievalEngine {
  let db: Database.Database | null = null;
  let ids: string[] = [];
  let opened = 0;

  function release(): void {
    db?.close();
    db = null;
  }

  return {
    name: "fts5-baseline",

    async index(conversation: Conversation): Promise<void> {
      release();
      opened += 1;
      db = new Database(join(workDir, `fts5-${fileSafe(conversation.id)}-${opened}.db`));
      db.exec("CREATE VIRTUAL TABLE t USING fts5(content)");
      const insert = db.prepare("INSERT INTO t(rowid, content) VALUES (?, ?)");
      ids = conversation.turns.map((turn) => turn.id);
      const turns = conversation.turns;
      db.transaction(() => {
        // rowid = position + 1 maps a hit back to its dia_id without storing the id as text.
        turns.forEach((turn, i) => {
          insert.run(i + 1, turnContent(turn));
        });
      })();
    },

    async search(question: string, k: number): Promise<string[]> {
      if (db === null) throw new Error("fts5-baseline: search before index");
      const match = naiveMatch(question);
      if (match === null) return [];
      const rows = db
        .prepare("SELECT rowid AS id FROM t WHERE t MATCH ? ORDER BY bm25(t) LIMIT ?")
        .all(match, k) as Array<{ id: number }>;
      return rows.flatMap((row) => {
        const id = ids[row.id - 1];
        return id === undefined ? [] : [id];
      });
    },

    async close(): Promise<void> {
      release();
    },
  };
}

/**
 * `"when" OR "did" OR "caroline" …`: every run of letters or digits, lower-cased and quoted so no
 * word acts as FTS5 syntax. Repeats are dropped, since FTS5 would score a repeated term twice.
 */
export function naiveMatch(question: string): string | null {
  const words = question
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== "");
  if (words.length === 0) return null;
  return [...new Set(words)].map((w) => `"${w}"`).join(" OR ");
}
