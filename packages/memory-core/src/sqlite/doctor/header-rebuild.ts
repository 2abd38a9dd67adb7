// A database file whose first 100 bytes (the header) were overwritten is "not a database" to
// SQLite, though every page after them is whole. The header holds little that cannot be told from
// the file: the page size (the first one that divides the file and puts a b-tree page after the
// header), the page count (the file's size), the log mode. It is written again on a copy only.
import { closeSync, fstatSync, openSync, readSync, writeSync } from "node:fs";

const PAGE_SIZES = [4096, 1024, 2048, 8192, 16384, 32768, 65536, 512];
/** B-tree page types: table leaf and interior (page 1 holds the schema table's root). */
const TABLE_PAGES = new Set([0x0d, 0x05]);

/** Rewrites the header of the file at `path`; false when no page size fits. */
export function rebuildHeader(path: string, withLog: boolean): boolean {
  const fd = openSync(path, "r+");
  try {
    const size = fstatSync(fd).size;
    const first = Buffer.alloc(101);
    readSync(fd, first, 0, 101, 0);
    const pageSize = PAGE_SIZES.find((candidate) => size % candidate === 0 && size >= candidate);
    if (pageSize === undefined || !TABLE_PAGES.has(first[100] as number)) return false;
    const header = Buffer.alloc(100);
    header.write("SQLite format 3\0", 0, "latin1");
    header.writeUInt16BE(pageSize === 65536 ? 1 : pageSize, 16);
    header[18] = withLog ? 2 : 1; // write version: 2 = WAL
    header[19] = withLog ? 2 : 1;
    header[21] = 64; // payload fractions, fixed by the format
    header[22] = 32;
    header[23] = 32;
    header.writeUInt32BE(1, 24); // change counter
    header.writeUInt32BE(size / pageSize, 28); // pages
    header.writeUInt32BE(1, 40); // schema cookie
    header.writeUInt32BE(4, 44); // schema format
    header.writeUInt32BE(1, 56); // UTF-8
    header.writeUInt32BE(1, 92); // valid for change counter 1
    header.writeUInt32BE(3_040_001, 96);
    writeSync(fd, header, 0, 100, 0);
    return true;
  } finally {
    closeSync(fd);
  }
}
