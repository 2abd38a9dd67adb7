import type { StatementCache } from "../schema/statement-cache.js";
import { entryColumns, entryRowOf, type MemoryRow } from "./entry-row.js";

/**
 * The memories rows recall read lately, by rowid, with every column an entry is built from but its
 * vector. A recall at 10k entries read ~40 candidate rows and the ~10 it returns, a third of its
 * time, and the next recalls read most of them again (1,000 distinct queries touched 9.3k rows).
 *
 * Rows are kept only while nothing is written: each read first checks that this connection changed
 * no row since the last one (`total_changes()`) and that no other connection committed (`PRAGMA
 * data_version`), and empties the cache otherwise. A store between two recalls costs the second
 * what it cost before, and two statements more.
 */
export interface RowCache {
  /** The rows of `rids`, in their order: undefined for a rid not stored. */
  rows(rids: readonly number[]): Array<MemoryRow | undefined>;
}

/** Rows read in one statement, at most; fewer are padded with NULLs to a multiple of 8 (8 shapes). */
const READ_BATCH = 64;

/**
 * Characters of text the cache holds per row it may hold: rows of long contents (up to
 * max_content_bytes each) are then kept fewer, never more than ~1 KB of text a row on average.
 */
const CHARS_PER_ROW = 1024;
/** What a row costs besides its text, counted in characters (its other columns, the object). */
const ROW_OVERHEAD_CHARS = 200;

function charsOf(row: MemoryRow): number {
  return (
    ROW_OVERHEAD_CHARS +
    row.content.length +
    row.key.length +
    (row.context?.length ?? 0) +
    (typeof row.metadata === "string" ? row.metadata.length : 0) +
    (row.source_path?.length ?? 0)
  );
}

/**
 * `maxRows` 0 reads every row from the database each time. The cache holds at most `maxRows` rows
 * and `maxRows` × CHARS_PER_ROW characters of text; when a read would pass either, the oldest rows
 * (in the order they were read) leave it, at least a quarter of `maxRows`.
 */
export function createRowCache(statements: StatementCache, maxRows: number): RowCache {
  const cached = new Map<number, MemoryRow>();
  const maxChars = maxRows * CHARS_PER_ROW;
  let chars = 0;
  /** total_changes() and data_version when the rows held were valid. */
  let changesSeen = -1;
  let versionSeen = -1;
  const read = (count: number) =>
    statements
      .get(
        `SELECT ${entryColumns(false)} FROM (VALUES ${Array(count).fill("(?)").join(", ")}) wanted
       CROSS JOIN memories m ON m.rid = wanted.column1`,
      )
      .raw();

  function fresh(): void {
    // Two statements: as one, through the pragma_data_version table, it took ~4 instead of ~2.4 µs.
    const changes = statements.get("SELECT total_changes()").pluck().get() as number;
    const version = statements.get("PRAGMA data_version").pluck().get() as number;
    if (changes !== changesSeen || version !== versionSeen) {
      cached.clear();
      chars = 0;
      changesSeen = changes;
      versionSeen = version;
    }
  }

  /** Reads `rids` (none cached) into `found`. */
  function readInto(rids: readonly number[], found: Map<number, MemoryRow>): void {
    for (let from = 0; from < rids.length; from += READ_BATCH) {
      const batch: Array<number | null> = rids.slice(from, from + READ_BATCH);
      const size = Math.ceil(batch.length / 8) * 8;
      while (batch.length < size) batch.push(null);
      for (const values of read(size).all(...batch) as unknown[][]) {
        const row = entryRowOf(values);
        found.set(row.rid, row);
      }
    }
  }

  function keep(rows: Map<number, MemoryRow>): void {
    const weighed = [...rows.values()].map((row) => [row, charsOf(row)] as const);
    const adding = weighed.reduce((total, [, weight]) => total + weight, 0);
    const fits = () => cached.size + rows.size <= maxRows && chars + adding <= maxChars;
    if (!fits()) {
      let drop = Math.ceil(maxRows / 4);
      for (const [rid, row] of cached) {
        if (drop-- <= 0 && fits()) break;
        cached.delete(rid);
        chars -= charsOf(row);
      }
    }
    for (const [row, weight] of weighed) {
      if (cached.size < maxRows && chars + weight <= maxChars) {
        cached.set(row.rid, row);
        chars += weight;
      }
    }
  }

  return {
    rows(rids) {
      const found = new Map<number, MemoryRow>();
      if (maxRows === 0) {
        readInto(rids, found);
      } else {
        fresh();
        const missing: number[] = [];
        for (const rid of rids) {
          const row = cached.get(rid);
          if (row === undefined) missing.push(rid);
          else found.set(rid, row);
        }
        if (missing.length > 0) {
          const read = new Map<number, MemoryRow>();
          readInto(missing, read);
          keep(read);
          for (const [rid, row] of read) found.set(rid, row);
        }
      }
      return rids.map((rid) => found.get(rid));
    },
  };
}
