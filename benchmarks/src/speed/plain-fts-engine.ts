/**
 * The "plain form" claw's keyword figure is read against: the same entries in a bare SQLite FTS5
 * table with the store's tokenizer, queried with the same terms OR-ed and ranked by FTS5's BM25.
 * What is left of claw's latency above it is the store's own work (coverage, calibration, reading
 * rows), and what both pay is the index's cost on the query's posting lists.
 */
import { ftsTermsOf } from "@claw/memory-core";
import Database from "better-sqlite3";
import type { Corpus } from "./corpus.js";

export interface PlainFtsEngine {
  /** Corpus indexes of the top `k` entries for `text`, best first. */
  search(text: string, k: number): number[];
  /** Share of the entries holding `term` (after the tokenizer), to describe a corpus. */
  documentShare(term: string): number;
  close(): void;
}

const INSERT_CHUNK = 10_000;

/** `"a" OR "b" …` over the terms the store would search (ftsTermsOf), or null when none is left. */
export function plainFtsQuery(text: string): string | null {
  const terms = ftsTermsOf(text);
  if (terms.length === 0) return null;
  return terms.map((term) => `"${term.replace(/"/g, '""')}"`).join(" OR ");
}

/**
 * Loads entries `0 .. corpus.size - 1` (rowid = index + 1) into a new database at `path`: a
 * contentless table with the store's key and body columns and tokenizer, as claw's index has.
 */
export function createPlainFts(path: string, corpus: Corpus): PlainFtsEngine {
  const db = new Database(path);
  try {
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    db.exec(
      "CREATE VIRTUAL TABLE t USING fts5(key, body, content='', tokenize='porter unicode61 remove_diacritics 2')",
    );
    const insert = db.prepare("INSERT INTO t (rowid, key, body) VALUES (?, ?, ?)");
    for (let from = 0; from < corpus.size; from += INSERT_CHUNK) {
      db.transaction(() => {
        for (let i = from; i < Math.min(corpus.size, from + INSERT_CHUNK); i++) {
          insert.run(BigInt(i + 1), corpus.keyAt(i), corpus.sentenceAt(i));
        }
      })();
    }
  } catch (error) {
    db.close();
    throw error;
  }
  const query = db.prepare<[string, number], { rowid: number }>(
    "SELECT rowid FROM t WHERE t MATCH ? ORDER BY rank LIMIT ?",
  );
  const count = db.prepare<[string], number>("SELECT count(*) FROM t WHERE t MATCH ?").pluck();
  return {
    search(text, k) {
      const match = plainFtsQuery(text);
      return match === null ? [] : query.all(match, k).map((row) => row.rowid - 1);
    },
    documentShare(term) {
      const match = plainFtsQuery(term);
      return match === null ? 0 : (count.get(match) ?? 0) / Math.max(1, corpus.size);
    },
    close: () => db.close(),
  };
}
