import type { Logger } from "@claw/memory-api";
import type { StatementCache } from "../schema/statement-cache.js";

/** Counts the entries a store changed and merges the full-text index when enough have. */
export interface IndexMerge {
  /**
   * Whether a write of `entries` entries, about to start, is one to merge whole right after it: it
   * crosses the line by itself. The writer then runs it through writeWhole().
   */
  mergesWhole(entries: number): boolean;
  /**
   * Runs a write that mergesWhole() chose, inside the caller's transaction, without FTS5's
   * automatic merges (a rollback undoes the setting with the write).
   */
  writeWhole<T>(write: () => T): T;
  /**
   * After a committed write of `entries` entries, in a transaction of its own; `whole`: the write
   * ran through writeWhole(), and the index is merged whole now whatever the count says. A bulk
   * write short of that line leaves nothing to merge: FTS5's automerge merged its segments as it
   * went in; but the old postings it left behind are counted whatever its size: `removed` entries
   * deleted (an import's `remove`) and `replaced` rows of `entries` rewritten.
   */
  changed(entries: number, whole?: boolean, removed?: number, replaced?: number): void;
}

/** Changes before the first merge, and at least between two. */
const MERGE_AFTER_MIN = 1_000;
/** Pages written per step of an incremental merge: about 4 ms each (43 steps at 100k entries). */
const MERGE_STEP_PAGES = 50;

/**
 * A bulk write (MERGE_AFTER_MIN entries or more) merges the index whole only once the changes
 * reach this share of the store; short of it, it runs under FTS5's automerge, which leaves its
 * segments merged in tiers, and owes nothing. With a tenth, importing 1M entries in 50k calls
 * merged 15 times (50k, 100k, … 1M entries), 15.5 s of its 47.3 s; with a half, adding up the
 * bulk writes short of it, 5 times (50k, 100k, 200k, 400k, 800k), and the 200k entries written
 * after 800k were left to the next small writes: a merge of the whole 1M-entry index in ~660
 * steps, store() p50 3.2 instead of ~0.5 ms. Now twice (50k, 100k): 27.8k → 42.4k entries/s at
 * 1M in the speed suite, keyword p50 7.5 / 8.3 ms (two runs, the machine's phase in the ratio).
 */
const BULK_MERGE_SHARE = 0.5;

/** FTS5's automerge setting when the index does not store one (FTS5_DEFAULT_AUTOMERGE). */
const DEFAULT_AUTOMERGE = 4;

/**
 * Writes and deletes leave the full-text index in many segments, with deleted rows in them, and
 * every query reads each term through all of them: after 12k stores and deletes on 10k entries,
 * server recalls/s fell by a sixth. Once a store has changed 1 000 entries, or a tenth of its size
 * if that is more (so merging costs O(1) per change), the segments are merged into one:
 * - right after a bulk write (an import: already a long call, 12 ms more at 10k entries, ~100 ms
 *   at 100k), when the changes reach half the store (BULK_MERGE_SHARE); a bulk write short of it
 *   is merged in tiers by FTS5's automerge as it goes in, and is not counted;
 * - otherwise a step at a time (FTS5's incremental optimize, ~4 ms a step), one step after each
 *   later write, so that no single store() pays for the whole merge (at 100k entries: 43 steps,
 *   161 ms in all, instead of one store paying 100 ms).
 * A failed merge only costs speed: it is logged, never thrown.
 *
 * A write merged whole runs without FTS5's automerge, which merges each level's segments 4 at a
 * time while rows are inserted: the whole merge rewrites them all once more. At 100k entries that
 * indexes them in 9.0 instead of 10.3 µs each, the merge included (FTS5 still merges a level that
 * reaches 16 segments). The merge commits on its own, after the write: a bulk write's checkpoint
 * (wal-checkpointer.ts) copies the write's pages on the other core meanwhile.
 */
export function createIndexMerge(statements: StatementCache, logger: Logger): IndexMerge {
  let since = 0;
  let due = MERGE_AFTER_MIN;
  /** The store's size when last counted, and the changes counted since: at most that many more. */
  let counted: { size: number; changes: number } | null = null;
  /** An incremental merge under way: when it began, the changes that started it, steps taken. */
  let merging: { started: number; changes: number; entries: number; steps: number } | null = null;
  const merge = (pages: number) =>
    statements.get("INSERT INTO memories_fts(memories_fts, rank) VALUES ('merge', ?)").run(pages);
  const totalChanges = () => statements.get("SELECT total_changes()").pluck().get() as number;
  const count = () => {
    const size = statements.get("SELECT count(*) FROM memories").pluck().get() as number;
    counted = { size, changes: 0 };
    return size;
  };
  /** The line the changes must reach at a store of `size` entries; for a bulk write's own merge. */
  const dueAt = (size: number) => Math.max(MERGE_AFTER_MIN, Math.ceil(size / 10));
  const bulkDueAt = (size: number) => Math.max(MERGE_AFTER_MIN, Math.ceil(size * BULK_MERGE_SHARE));
  // FTS5 takes option values as literals only: a stored one is written back as an integer.
  const setAutomerge = (value: number) =>
    statements.get(`INSERT INTO memories_fts(memories_fts, rank) VALUES ('automerge', ${value})`).run();

  const done = (details: { changes: number; entries: number; ms: number; steps?: number }) =>
    logger.debug("full-text index merged", details);

  /** One more step of the incremental merge; FTS5 writes (almost) nothing once it is complete. */
  function step(): void {
    if (merging === null) return;
    const before = totalChanges();
    merge(MERGE_STEP_PAGES);
    merging.steps++;
    if (totalChanges() - before >= 2) return;
    const { started, changes, entries, steps } = merging;
    merging = null;
    done({ changes, entries, ms: Math.round(performance.now() - started), steps });
  }

  return {
    mergesWhole(entries) {
      if (entries < MERGE_AFTER_MIN || since + entries < due) return false;
      try {
        // Other connections may have grown the store since it was counted: the write is then
        // merged whole a little early, never left unmerged.
        const known = counted ?? { size: count(), changes: 0 };
        return since + entries >= bulkDueAt(known.size + known.changes + entries);
      } catch {
        return false;
      }
    },

    writeWhole(write) {
      const stored = statements.get("SELECT v FROM memories_fts_config WHERE k = 'automerge'").pluck().get();
      setAutomerge(0);
      const result = write();
      setAutomerge(Number.isInteger(stored) ? (stored as number) : DEFAULT_AUTOMERGE);
      return result;
    },

    changed(entries, whole = false, removed = 0, replaced = 0) {
      // What the merge is owed: all of it, or for a bulk write under automerge its old postings.
      const bulk = !whole && entries >= MERGE_AFTER_MIN;
      const owed = bulk ? removed + replaced : entries + removed;
      try {
        if (counted !== null) counted.changes += entries + removed;
        step();
        since += owed;
        if (!whole && since < due) return;
        const size = count();
        due = dueAt(size);
        if (!whole && since < due) return;
        if (whole) {
          const started = performance.now();
          merging = null;
          statements.get("INSERT INTO memories_fts(memories_fts) VALUES ('optimize')").run();
          done({ changes: since, entries: size, ms: Math.round(performance.now() - started) });
        } else {
          // A negative page count starts an incremental optimize; later steps continue it.
          merge(-MERGE_STEP_PAGES);
          merging = { started: performance.now(), changes: since, entries: size, steps: 1 };
          logger.debug("full-text index merge started", { changes: since, entries: size });
        }
        since = 0;
      } catch (error) {
        merging = null;
        logger.debug("full-text index merge skipped", { error: (error as Error).message });
      }
    },
  };
}
