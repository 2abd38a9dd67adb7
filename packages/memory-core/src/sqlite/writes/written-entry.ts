import type { MemoryEntry } from "@claw/memory-api";
import { entryColumns, type MemoryRow, rowToEntry } from "../reads/entry-row.js";
import type { StatementCache } from "../schema/statement-cache.js";

/**
 * The entry `get()` would return for a row just written with these values. It is built from the
 * values rather than read back (a read per write was a measurable share of a bulk import), except
 * in the rare case where SQLite would not store a value exactly as given.
 */
export function writtenEntry(statements: StatementCache, written: MemoryRow): MemoryEntry {
  if (!roundTrips(written)) {
    const row = statements
      .get(`SELECT ${entryColumns(false)} FROM memories m WHERE m.rid = ?`)
      .get(written.rid) as MemoryRow;
    return rowToEntry(row);
  }
  return rowToEntry({
    ...written,
    importance: asStored(written.importance),
    source_start: asStored(written.source_start),
    source_end: asStored(written.source_end),
  });
}

/** SQLite keeps no negative zero: -0 reads back as 0. */
function asStored(value: number | null): number | null {
  return value === 0 ? 0 : value;
}

// A lone surrogate (ill-formed UTF-16) does not survive the trip through UTF-8: it reads back as
// replacement characters. With the u flag, paired surrogates are one code point and do not match.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

function roundTrips(row: MemoryRow): boolean {
  for (const text of [
    row.id,
    row.key,
    row.content,
    row.category,
    row.namespace,
    row.session_id,
    row.superseded_by,
    row.source_path,
    row.context,
  ]) {
    if (text !== null && LONE_SURROGATE.test(text)) return false;
  }
  return true;
}
