// Memory.backup() on PostgreSQL: NDJSON, every live entry with its vector, one entry per line (the
// format `claw-memory export --embeddings` writes and `import` reads), then every version of every
// key, one per line as `{"history": <MemoryVersion as history() returns it>}` (history-lines.ts),
// which `restore` puts back with replaceHistory() after importing the entries. Entries and versions
// are read a page at a time inside one REPEATABLE READ transaction, so that the file is one snapshot
// of the store however long it takes and whatever other servers write meanwhile, and written to a
// temp file renamed onto the path (writeFileAtomic). pg_dump copies the whole database.
import { stat } from "node:fs/promises";
import type { BackupReport, BackupRequest, MemoryEntry } from "@claw/memory-api";
import { writeFileAtomic } from "@claw/memory-core";
import { inTransaction, type Pool } from "../db/pool.js";
import type { SqlNames } from "../db/sql-names.js";
import { rowToEntry } from "./entry-row.js";
import { countVersions, versionPages } from "./history-lines.js";
import { countEntries, exportPage } from "./read-entries.js";

/** Entries (or versions) read per query. */
const PAGE_SIZE = 500;
/** Lines are written in chunks of about this many characters. */
const CHUNK_CHARS = 64 * 1024;

/** An entry as one line of NDJSON: its vector as an array of numbers. */
export function ndjsonLine(entry: MemoryEntry): string {
  const { embedding, ...rest } = entry;
  return `${JSON.stringify(embedding === undefined ? rest : { ...rest, embedding: Array.from(embedding) })}\n`;
}

/** Writes the backup file; database and file failures are thrown as they are (the caller maps them). */
export async function backupNdjson(
  pool: Pool,
  names: SqlNames,
  request: BackupRequest,
): Promise<BackupReport> {
  const { path, aliveAt, onProgress } = request;
  let entries = 0;
  let versions = 0;
  await inTransaction(pool, async (tx) => {
    await tx.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY");
    // Lines in all: the entries, then the versions of their history.
    const total =
      (await countEntries(tx, names, undefined, undefined, aliveAt)) + (await countVersions(tx, names));
    onProgress?.({ done: 0, total });
    async function* chunks(): AsyncGenerator<string> {
      let buffer = "";
      for (let afterRid = 0; ; ) {
        const rows = await exportPage(tx, names, { aliveAt }, true, afterRid, PAGE_SIZE);
        for (const row of rows) {
          buffer += ndjsonLine(rowToEntry(row));
          entries += 1;
        }
        if (buffer.length >= CHUNK_CHARS) {
          yield buffer;
          buffer = "";
        }
        // The snapshot cannot change: the count is the total, whatever other servers write.
        if (rows.length > 0) onProgress?.({ done: entries, total: Math.max(total, entries) });
        const last = rows.at(-1);
        if (rows.length < PAGE_SIZE || last === undefined) break;
        afterRid = last.rid;
      }
      for await (const page of versionPages(tx, names, aliveAt, PAGE_SIZE)) {
        for (const version of page) buffer += `${JSON.stringify({ history: version })}\n`;
        versions += page.length;
        if (buffer.length >= CHUNK_CHARS) {
          yield buffer;
          buffer = "";
        }
        const done = entries + versions;
        onProgress?.({ done, total: Math.max(total, done) });
      }
      yield buffer;
    }
    await writeFileAtomic(path, chunks());
  });
  return { path, entries, versions, bytes: (await stat(path)).size };
}
