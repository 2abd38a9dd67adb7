// exportStream's loop, for every backend: pages of rows by ascending row id until one comes back short.
import type { MemoryEntry } from "@claw/memory-api";

/** Rows read per query by exportStream. */
export const EXPORT_PAGE_SIZE = 500;

/**
 * The entries of the pages `readPage(afterRid, limit)` returns, each page starting after the last
 * row id of the one before; a page shorter than `limit` is the last. Each page is a query of its
 * own, so nothing stays open between them.
 */
export async function* exportPages<R extends { rid: number }>(
  readPage: (afterRid: number, limit: number) => R[] | Promise<R[]>,
  toEntry: (row: R) => MemoryEntry,
  limit: number = EXPORT_PAGE_SIZE,
): AsyncGenerator<MemoryEntry> {
  for (let afterRid = 0; ; ) {
    const rows = await readPage(afterRid, limit);
    for (const row of rows) yield toEntry(row);
    const last = rows.at(-1);
    if (rows.length < limit || last === undefined) return;
    afterRid = last.rid;
  }
}
