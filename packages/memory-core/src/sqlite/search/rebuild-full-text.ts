import type { Database } from "better-sqlite3";
import { toFtsIndexText } from "../../text/tokenizer.js";
import type { StatementCache } from "../schema/statement-cache.js";
import { rebuildFullTextIndex } from "./fts-index.js";

/** Recomputes the indexed text and context of every entry and rebuilds the FTS5 index; returns the entry count. */
export function rebuildFullText(db: Database, statements: StatementCache): number {
  return db
    .transaction(() => {
      const update = statements.get("UPDATE memories SET fts_text = ? WHERE rid = ?");
      // Paged rather than iterated: better-sqlite3 refuses writes while an iterator is open.
      const page = statements.get("SELECT rid, content FROM memories WHERE rid > ? ORDER BY rid LIMIT 1000");
      let count = 0;
      for (let after = 0; ; ) {
        const rows = page.all(after) as Array<{ rid: number; content: string }>;
        if (rows.length === 0) break;
        for (const row of rows) update.run(toFtsIndexText(row.content), row.rid);
        count += rows.length;
        after = (rows[rows.length - 1] as { rid: number }).rid;
      }
      rebuildFullTextIndex(statements);
      return count;
    })
    .immediate();
}
