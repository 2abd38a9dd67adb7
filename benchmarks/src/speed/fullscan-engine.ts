/**
 * The "full-scan form" the CI gate compares claw against: the same vectors as BLOBs in a plain
 * table, ranked by sqlite-vec's `vec_distance_cosine` over every row.
 */
import Database from "better-sqlite3";
import * as sqliteVec from "sqlite-vec";
import { removeDatabase } from "./claw-engine.js";
import type { VectorSearchEngine } from "./js-scan-engine.js";

export interface FullScanEngine extends VectorSearchEngine {
  /** Rows written per second while loading. */
  readonly insertPerSecond: number;
  close(): void;
}

const INSERT_CHUNK = 10_000;

/** Loads rows `0 .. matrix.length / dimensions - 1` (rowid = index + 1) into a new database at `path`. */
export function createFullScan(path: string, matrix: Float32Array, dimensions: number): FullScanEngine {
  const db = new Database(path);
  try {
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    sqliteVec.load(db);
    db.exec("CREATE TABLE t (rowid INTEGER PRIMARY KEY, embedding BLOB NOT NULL)");
  } catch (error) {
    db.close();
    throw error;
  }
  const rows = Math.floor(matrix.length / dimensions);
  const insert = db.prepare("INSERT INTO t (rowid, embedding) VALUES (?, ?)");
  const start = process.hrtime.bigint();
  for (let from = 0; from < rows; from += INSERT_CHUNK) {
    db.transaction(() => {
      for (let r = from; r < Math.min(rows, from + INSERT_CHUNK); r++) {
        // A view, not a copy: x86 and ARM are little-endian, the layout sqlite-vec reads.
        const bytes = Buffer.from(matrix.buffer, matrix.byteOffset + r * dimensions * 4, dimensions * 4);
        insert.run(BigInt(r + 1), bytes);
      }
    })();
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const query = db.prepare<[Buffer, number], { rowid: number; d: number }>(
    "SELECT rowid, vec_distance_cosine(embedding, ?) AS d FROM t ORDER BY d LIMIT ?",
  );
  return {
    insertPerSecond: rows / Math.max(seconds, 1e-9),
    search(vector, k) {
      const bytes = Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
      return query.all(bytes, k).map((row) => row.rowid - 1);
    },
    close: () => db.close(),
  };
}

/**
 * A full scan loaded at `path` for the length of `run` (timed beside claw, whose store stays open
 * meanwhile), then closed and its files removed.
 */
export async function withFullScan<T>(
  path: string,
  matrix: Float32Array,
  dimensions: number,
  run: (engine: FullScanEngine) => Promise<T>,
): Promise<T> {
  const engine = createFullScan(path, matrix, dimensions);
  try {
    return await run(engine);
  } finally {
    engine.close();
    removeDatabase(path);
  }
}
