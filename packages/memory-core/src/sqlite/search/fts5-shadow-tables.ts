import type { StatementCache } from "../schema/statement-cache.js";

/**
 * What bm25() reads besides the postings, from FTS5's shadow tables: each entry's length in
 * tokens (memories_fts_docsize) and the row count with each column's tokens (the averages record,
 * memories_fts_data id 1), both as SQLite varints.
 */

/** The lengths of `rids` into `into`; a rowid without a size row is not in the index. */
export function readLengths(statements: StatementCache, rids: readonly number[], into: EntryLengths): void {
  const rows = statements
    .get("SELECT id, sz FROM memories_fts_docsize WHERE id IN (SELECT value FROM json_each(?))")
    .raw()
    .all(JSON.stringify(rids)) as [number, Buffer][];
  for (const [rid, sizes] of rows) into.set(rid, sumOfVarints(sizes));
}

/** FTS5's averages record (memories_fts_data, id 1): the row count, then each column's tokens. */
export function readStats(statements: StatementCache): { rows: number; avgdl: number } | null {
  const block = statements.get("SELECT block FROM memories_fts_data WHERE id = 1").pluck().get() as
    | Buffer
    | undefined;
  if (block === undefined) return null;
  const values = varints(block);
  const rows = values[0] ?? 0;
  if (rows <= 0) return null;
  const tokens = values.slice(1).reduce((sum, n) => sum + n, 0);
  return { rows, avgdl: tokens / rows };
}

/** The sum of a docsize blob's varints (one per column). */
function sumOfVarints(bytes: Uint8Array): number {
  return varints(bytes).reduce((sum, n) => sum + n, 0);
}

/** SQLite's varints: big-endian 7-bit groups, high bit set on all but the last; a 9th byte has 8. */
export function varints(bytes: Uint8Array): number[] {
  const values: number[] = [];
  let i = 0;
  while (i < bytes.length) {
    let value = 0;
    for (let k = 0; k < 9 && i < bytes.length; k++) {
      const byte = bytes[i++] as number;
      if (k === 8) {
        value = value * 256 + byte;
        break;
      }
      value = value * 128 + (byte & 0x7f);
      if ((byte & 0x80) === 0) break;
    }
    values.push(value);
  }
  return values;
}

/**
 * Tokens per entry by rowid, valid for one state of the index: forgetting them all is O(1) (a new
 * generation), so that a store written between every two recalls does not pay for clearing.
 */
export class EntryLengths {
  private generation = 1;
  private lengths = new Int32Array(0);
  private generations = new Uint32Array(0);

  /** The entry's length, or -1 when not read in this generation. */
  get(rid: number): number {
    return this.generations[rid] === this.generation ? (this.lengths[rid] as number) : -1;
  }

  set(rid: number, length: number): void {
    if (rid >= this.lengths.length) {
      const size = Math.max(rid + 1, this.lengths.length * 2);
      const lengths = new Int32Array(size);
      lengths.set(this.lengths);
      const generations = new Uint32Array(size);
      generations.set(this.generations);
      this.lengths = lengths;
      this.generations = generations;
    }
    this.lengths[rid] = length;
    this.generations[rid] = this.generation;
  }

  forget(): this {
    this.generation++;
    return this;
  }
}
