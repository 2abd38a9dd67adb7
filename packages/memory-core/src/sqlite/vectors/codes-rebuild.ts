import { randomUUID } from "node:crypto";
import type { Database } from "better-sqlite3";
import type { MetaStore } from "../schema/meta-store.js";
import { BinaryCodes } from "./binary-codes.js";
import { ENCODING_KEY, parseEncoding, ROTATION_SEED, writeEncoding } from "./encoding-state.js";
import { type CodeEncoding, encodedToBlob, VectorEncoder } from "./vector-encoder.js";

/** A built encoding with its codes, as a connection holds it. */
export interface BuiltCodes {
  /** The `meta` value it was read from or written as. */
  raw: string;
  encoder: VectorEncoder;
  /** The codes in memory, when the build just wrote them (null: read them from memory_codes). */
  codes: BinaryCodes | null;
}

export const CODES_TABLE = `CREATE TABLE IF NOT EXISTS memory_codes (
  rid INTEGER PRIMARY KEY, namespace TEXT NOT NULL, code BLOB NOT NULL, seq INTEGER NOT NULL DEFAULT 0)`;

/** Rows per page of storedPages(). */
const PAGE_ROWS = 1000;

/**
 * Rebuilds every code around the mean of the stored vectors, in one transaction: a process killed
 * half-way leaves the old codes and the old `meta` entry, so the next open rebuilds again. Codes
 * get `seq` 1..n, and a new `build` tells other connections to read them whole.
 *
 * `stillWanted` sees the encoding stored when the write lock is held: another connection may have
 * rebuilt meanwhile, and then its build is adopted instead (null is returned when nothing is stored
 * and nothing is wanted).
 */
export function rebuildCodes(
  db: Database,
  meta: MetaStore,
  dimensions: number,
  stillWanted: (stored: CodeEncoding | null) => boolean,
): BuiltCodes | null {
  return db
    .transaction((): BuiltCodes | null => {
      const raw = meta.get(ENCODING_KEY);
      const stored = parseEncoding(raw);
      if (!stillWanted(stored)) {
        return stored === null || raw === undefined
          ? null
          : { raw, encoder: new VectorEncoder(stored), codes: null };
      }
      const { mean, basis } = meanOfStored(db, dimensions);
      const encoding: CodeEncoding = { dimensions, seed: ROTATION_SEED, mean, basis, build: randomUUID() };
      const encoder = new VectorEncoder(encoding);
      function* encoded(): Generator<StoredCode> {
        for (const page of storedPages<StoredRow>(db, "namespace, embedding")) {
          for (const row of page)
            yield [row.rid, row.namespace, encodedToBlob(encoder.encode(row.embedding))];
        }
      }
      return replaceCodes(db, meta, encoder, encoded());
    })
    .immediate();
}

/** One code as `memory_codes` holds it: rid, namespace, code. */
export type StoredCode = [rid: number, namespace: string, code: Buffer];

/**
 * Replaces every code with `codes` (in rowid order, each rid once), numbered `seq` 1..n, and
 * stores `encoder`'s encoding; inside the caller's transaction. `codes` may read rows as they go:
 * the old codes are deleted first. `count`: how many there will be, when known.
 */
export function replaceCodes(
  db: Database,
  meta: MetaStore,
  encoder: VectorEncoder,
  codes: Iterable<StoredCode>,
  count?: number,
): BuiltCodes {
  const held = new BinaryCodes(encoder.words);
  if (count !== undefined) held.reserve(count);
  db.exec("DELETE FROM memory_codes");
  const insert = db.prepare("INSERT INTO memory_codes(rid, namespace, code, seq) VALUES (?, ?, ?, ?)");
  let seq = 0;
  for (const [rid, namespace, code] of codes) {
    insert.run(rid, namespace, code, ++seq);
    held.appendStored(rid, namespace, code);
  }
  writeEncoding(meta, encoder.encoding);
  return { raw: meta.get(ENCODING_KEY) as string, encoder, codes: held };
}

/** The mean of the stored vectors of this dimension, and how many there were. */
function meanOfStored(db: Database, dimensions: number): { mean: Float32Array; basis: number } {
  const sum = new VectorSum(dimensions);
  for (const page of storedPages<StoredRow>(db, "embedding")) for (const row of page) sum.add(row.embedding);
  return sum;
}

/** A running sum of stored vectors (little-endian float32 BLOBs) of one dimension. */
export class VectorSum {
  private readonly sum: Float64Array;
  private added = 0;

  constructor(private readonly dimensions: number) {
    this.sum = new Float64Array(dimensions);
  }

  add(embedding: Buffer): void {
    const { dimensions, sum } = this;
    if (embedding.byteLength !== dimensions * 4) return;
    const view = new DataView(embedding.buffer, embedding.byteOffset, embedding.byteLength);
    for (let i = 0; i < dimensions; i++) sum[i] = (sum[i] as number) + view.getFloat32(i * 4, true);
    this.added++;
  }

  /** Vectors added; those of another dimension are skipped. */
  get basis(): number {
    return this.added;
  }

  /** The mean of what was added (zeros when nothing was). */
  get mean(): Float32Array {
    const mean = new Float32Array(this.dimensions);
    if (this.basis > 0)
      for (let i = 0; i < this.dimensions; i++) mean[i] = (this.sum[i] as number) / this.basis;
    return mean;
  }
}

interface StoredRow {
  rid: number;
  namespace: string;
  embedding: Buffer;
}

/**
 * The rows with a vector, `rid` and `columns`, a page at a time in rowid order, each page read
 * whole: better-sqlite3 refuses writes while an iterator is open, and a background rebuild lets
 * other work run between pages.
 */
export function* storedPages<R extends { rid: number }>(
  db: Database,
  columns: string,
  pageRows = PAGE_ROWS,
): Generator<R[]> {
  const page = db.prepare(
    `SELECT rid, ${columns} FROM memories WHERE embedding IS NOT NULL AND rid > ? ORDER BY rid LIMIT ${pageRows}`,
  );
  for (let after = 0; ; ) {
    const rows = page.all(after) as R[];
    if (rows.length === 0) return;
    yield rows;
    after = (rows[rows.length - 1] as R).rid;
  }
}
