import type { StatementCache } from "../schema/statement-cache.js";

/**
 * How the vector index writes its codes to `memory_codes`: one statement per code, or, inside a
 * bulk write, into a buffer written when the bulk write ends, in rowid order, still inside its
 * transaction. Interleaved with the rest of an import's rows (the entry with its 1.5 KB vector, its
 * indexes, its full-text postings), each code's insert cost ~30 µs at 50k × 384 per import call;
 * written together at the end, ~4.5 µs (importing 100k × 384 in two calls: 6.3–8.1k → 10.0k
 * entries/s). Every code takes the next `seq` as it is written or buffered, so the order other
 * connections read them in (codes-mirror.ts) is the same.
 */
export interface CodeWrites {
  /** Writes a code, or buffers it inside buffered(); returns its `seq`. */
  write(rid: number, namespace: string, code: Buffer): number;
  /** Deletes a code, written or buffered. */
  remove(rid: number): void;
  /** Runs `write` with codes buffered; the outermost call writes them when `write` returns. */
  buffered<T>(write: () => T): T;
  /** Writes the buffered codes now (before the table is counted). */
  flush(): void;
  /** Forgets the buffered codes (the table is about to be emptied or rebuilt). */
  discard(): void;
}

/** Every written code takes the next `seq`, so another connection reads only what changed. */
const NEXT_SEQ = "(SELECT coalesce(max(seq), 0) + 1 FROM memory_codes)";

export function createCodeWrites(statements: StatementCache): CodeWrites {
  let depth = 0;
  const pending = new Map<number, [namespace: string, code: Buffer, seq: number]>();
  /** The last `seq` given to a buffered code; -1: read it from the table when next needed. */
  let lastSeq = -1;

  function flush(): void {
    if (pending.size === 0) return;
    const upsert = statements.get(
      `INSERT INTO memory_codes(rid, namespace, code, seq) VALUES (?, ?, ?, ?)
       ON CONFLICT(rid) DO UPDATE SET namespace = excluded.namespace, code = excluded.code, seq = excluded.seq`,
    );
    for (const rid of [...pending.keys()].sort((a, b) => a - b)) {
      const [namespace, code, seq] = pending.get(rid) as [string, Buffer, number];
      upsert.run(rid, namespace, code, seq);
    }
    discard();
  }

  function discard(): void {
    pending.clear();
    lastSeq = -1;
  }

  return {
    write(rid, namespace, code) {
      if (depth === 0) {
        return statements
          .get(
            `INSERT INTO memory_codes(rid, namespace, code, seq) VALUES (?, ?, ?, ${NEXT_SEQ})
             ON CONFLICT(rid) DO UPDATE SET namespace = excluded.namespace, code = excluded.code, seq = excluded.seq
             RETURNING seq`,
          )
          .pluck()
          .get(rid, namespace, code) as number;
      }
      if (lastSeq < 0) {
        lastSeq = statements.get("SELECT coalesce(max(seq), 0) FROM memory_codes").pluck().get() as number;
      }
      lastSeq++;
      pending.set(rid, [namespace, code, lastSeq]);
      return lastSeq;
    },
    remove(rid) {
      pending.delete(rid);
      statements.get("DELETE FROM memory_codes WHERE rid = ?").run(rid);
    },
    buffered(write) {
      depth++;
      try {
        const result = write();
        if (depth === 1) flush();
        return result;
      } finally {
        depth--;
        // A write that threw rolls its transaction back: what it buffered goes with it.
        if (depth === 0) discard();
      }
    },
    flush,
    discard,
  };
}
