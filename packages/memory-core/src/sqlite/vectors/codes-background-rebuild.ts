import { randomUUID } from "node:crypto";
import type { Logger } from "@claw/memory-api";
import type { Database } from "better-sqlite3";
import type { MetaStore } from "../schema/meta-store.js";
import { type BuiltCodes, replaceCodes, type StoredCode, storedPages, VectorSum } from "./codes-rebuild.js";
import { ENCODING_KEY, parseEncoding, ROTATION_SEED } from "./encoding-state.js";
import { type CodeEncoding, encodedToBlob, VectorEncoder } from "./vector-encoder.js";

/**
 * A growth rebuild of the codes (vector-index.ts) that keeps the write lock only to swap them in.
 * Done inside the write that reached the count, re-encoding 65,536 codes at 384 dimensions held
 * the lock for 2.5–2.7 s: that store() waited as long, and so did every writer of the database
 * (their busy timeout is 5 s, which wider vectors would pass). Here the mean and the new codes are
 * computed from pages of rows read outside any write, yielding to the event loop between pages, so
 * searches and writes go on with the old codes meanwhile; then one short immediate transaction
 * writes the new codes and the encoding. Codes written after the rebuild began (a higher `seq`)
 * are encoded again in that transaction from the rows as they are then, and only codes still
 * stored are kept, so writes and deletions made meanwhile are never lost. A process that ends
 * before the swap has written nothing: the old codes and encoding stay, and the next write that
 * sees the count due starts again.
 */
export interface BackgroundRebuild {
  /** Starts a rebuild grown from `from`'s build, unless one is under way. */
  start(from: BuiltCodes): void;
  /** Whether a rebuild is under way. */
  readonly running: boolean;
  /** Resolves once no rebuild is under way. */
  settled(): Promise<void>;
  /** Stops a rebuild under way before its swap (nothing is written) and waits for it. */
  close(): Promise<void>;
}

export interface BackgroundRebuildOptions {
  db: Database;
  meta: MetaStore;
  /** Takes the swapped-in build (or, when another connection rebuilt first, null: read it again). */
  adopt: (built: BuiltCodes | null) => void;
  logger: Logger;
  /** Rows read per page (storedPages()'s default when absent). */
  pageRows?: number;
  /** Awaited between pages (default: the next turn of the event loop). */
  pause?: () => Promise<void>;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export function createBackgroundRebuild(options: BackgroundRebuildOptions): BackgroundRebuild {
  const { db, meta, adopt, logger } = options;
  const pause = options.pause ?? nextTurn;
  let running: Promise<void> | null = null;
  let stopped = false;

  /** storedPages(), with a pause before each page: nothing more is read once stopped. */
  async function* pages<R extends { rid: number }>(columns: string): AsyncGenerator<R[]> {
    const read = storedPages<R>(db, columns, options.pageRows);
    for (;;) {
      await pause();
      if (stopped) return;
      const next = read.next();
      if (next.done) return;
      yield next.value;
    }
  }

  async function rebuild(from: BuiltCodes): Promise<void> {
    const { dimensions, build } = from.encoder.encoding;
    // Started inside the write that reached the count: nothing is read before it has committed
    // (or rolled back, taking its codes' seqs with it).
    await pause();
    if (stopped) return;
    // Read first: a code written after this has a higher seq, whatever page its row is read in.
    const startSeq = db.prepare("SELECT coalesce(max(seq), 0) FROM memory_codes").pluck().get() as number;
    const sum = new VectorSum(dimensions);
    for await (const rows of pages<{ rid: number; embedding: Buffer }>("embedding")) {
      for (const { embedding } of rows) sum.add(embedding);
    }
    if (stopped) return;
    const { mean, basis } = sum;
    const encoding: CodeEncoding = { dimensions, seed: ROTATION_SEED, mean, basis, build: randomUUID() };
    const encoder = new VectorEncoder(encoding);
    const encoded = new Map<number, Buffer>();
    for await (const rows of pages<{ rid: number; embedding: Buffer }>("embedding")) {
      for (const { rid, embedding } of rows) encoded.set(rid, encodedToBlob(encoder.encode(embedding)));
    }
    if (stopped) return;
    const swapStarted = performance.now();
    const swapped = swapCodes(db, meta, encoder, encoded, startSeq, build);
    adopt(swapped);
    logger.debug("vector codes rebuilt in the background", {
      codes: swapped?.codes?.count ?? 0,
      basis,
      adopted: swapped !== null,
      swapMs: Math.round(performance.now() - swapStarted),
    });
  }

  return {
    start(from) {
      if (running !== null || stopped) return;
      running = rebuild(from)
        .catch((error: unknown) => {
          // Only the codes' quality is at stake: the old ones stay, and a later write retries.
          logger.warn("vector codes rebuild failed", { error: (error as Error).message });
        })
        .finally(() => {
          running = null;
        });
    },
    get running() {
      return running !== null;
    },
    async settled() {
      while (running !== null) await running;
    },
    async close() {
      stopped = true;
      while (running !== null) await running;
    },
  };
}

/**
 * Writes the codes of every vector still stored, in one immediate transaction: those of `encoded`
 * for codes not written since `startSeq`, the others encoded now from their rows. Returns the new
 * build, or null when another connection rebuilt from `build` first (it is then read again).
 */
function swapCodes(
  db: Database,
  meta: MetaStore,
  encoder: VectorEncoder,
  encoded: ReadonlyMap<number, Buffer>,
  startSeq: number,
  build: string,
): BuiltCodes | null {
  return db
    .transaction((): BuiltCodes | null => {
      if (parseEncoding(meta.get(ENCODING_KEY))?.build !== build) return null;
      const stored = db
        .prepare("SELECT rid, namespace, seq FROM memory_codes ORDER BY rid")
        .raw()
        .all() as Array<[number, string, number]>;
      const rowOf = db
        .prepare("SELECT embedding FROM memories WHERE rid = ? AND embedding IS NOT NULL")
        .pluck();
      function* current(): Generator<StoredCode> {
        for (const [rid, namespace, writtenAt] of stored) {
          let code = writtenAt > startSeq ? undefined : encoded.get(rid);
          if (code === undefined) {
            const embedding = rowOf.get(rid) as Buffer | undefined;
            if (embedding === undefined) continue;
            code = encodedToBlob(encoder.encode(embedding));
          }
          yield [rid, namespace, code];
        }
      }
      return replaceCodes(db, meta, encoder, current(), stored.length);
    })
    .immediate();
}
