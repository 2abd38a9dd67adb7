// Damage as a bad disk leaves it, for the doctor's tests: whole 4 KiB pages (or the 100-byte header)
// of a copy overwritten with seeded noise, and the rows the original held on those pages.
import { closeSync, copyFileSync, openSync, readSync, writeSync } from "node:fs";
import Database from "better-sqlite3";

export const PAGE_SIZE = 4096;

/** xorshift32: the same noise and the same pages for the same seed. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state;
  };
}

/** The leaf pages of a table or index, from SQLite's dbstat. */
export function leafPagesOf(path: string, name: string): number[] {
  const db = new Database(path, { readonly: true });
  try {
    return db
      .prepare("SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf' ORDER BY pageno")
      .pluck()
      .all(name) as number[];
  } finally {
    db.close();
  }
}

/** Copies `source` to `target` and overwrites `pages` (page 1: only its 100-byte header) with noise. */
export function damagedCopy(source: string, target: string, pages: readonly number[], seed: number): void {
  copyFileSync(source, target);
  const next = seeded(seed);
  const fd = openSync(target, "r+");
  try {
    for (const page of pages) {
      const noise = Buffer.alloc(page === 1 ? 100 : PAGE_SIZE);
      for (let i = 0; i < noise.length; i++) noise[i] = next() & 0xff;
      writeSync(fd, noise, 0, noise.length, (page - 1) * PAGE_SIZE);
    }
  } finally {
    closeSync(fd);
  }
}

/** The rowids of the cells on a table leaf page of the file at `path`. */
export function rowidsOnLeafPage(path: string, page: number): number[] {
  const buffer = Buffer.alloc(PAGE_SIZE);
  const fd = openSync(path, "r");
  try {
    readSync(fd, buffer, 0, PAGE_SIZE, (page - 1) * PAGE_SIZE);
  } finally {
    closeSync(fd);
  }
  const start = page === 1 ? 100 : 0;
  if (buffer[start] !== 0x0d) throw new Error(`page ${page} is not a table leaf`);
  const cells = buffer.readUInt16BE(start + 3);
  const rowids: number[] = [];
  for (let i = 0; i < cells; i++) {
    let offset = buffer.readUInt16BE(start + 8 + 2 * i);
    offset = varint(buffer, offset).next; // payload size
    rowids.push(varint(buffer, offset).value);
  }
  return rowids;
}

function varint(buffer: Buffer, offset: number): { value: number; next: number } {
  let value = 0;
  for (let i = 0; i < 9; i++) {
    const byte = buffer[offset + i] as number;
    if (i === 8) return { value: value * 256 + byte, next: offset + 9 };
    value = value * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) return { value, next: offset + i + 1 };
  }
  return { value, next: offset + 9 };
}
