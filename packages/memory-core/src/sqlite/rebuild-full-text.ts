import type { Database } from "better-sqlite3";
import { toFtsIndexText } from "../text/tokenizer.js";

/** Recomputes the indexed text of every entry and rebuilds the FTS5 index; returns the entry count. */
export function rebuildFullText(db: Database): number {
  return db.transaction(() => {
    const update = db.prepare("UPDATE memories SET fts_text = ? WHERE rid = ?");
    // Paged rather than iterated: better-sqlite3 refuses writes while an iterator is open.
    const page = db.prepare("SELECT rid, content FROM memories WHERE rid > ? ORDER BY rid LIMIT 1000");
    let count = 0;
    for (let after = 0; ; ) {
      const rows = page.all(after) as Array<{ rid: number; content: string }>;
      if (rows.length === 0) break;
      for (const row of rows) update.run(toFtsIndexText(row.content), row.rid);
      count += rows.length;
      after = (rows[rows.length - 1] as { rid: number }).rid;
    }
    db.exec("INSERT INTO memories_fts(memories_fts) VALUES ('delete-all')");
    db.exec(
      "INSERT INTO memories_fts(rowid, key, body) SELECT rid, key, coalesce(fts_text, content) FROM memories",
    );
    return count;
  })();
}
