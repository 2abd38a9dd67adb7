import { join } from "node:path";
import { silentLogger } from "@claw/memory-api";
import Database from "better-sqlite3";
import { describe, expect, it, onTestFinished } from "vitest";
import { openTestMemory, tempDir } from "../test-support/temp-memory.js";

/** Segments of the full-text index (each a b-tree FTS5 reads every query term from). */
function segments(path: string): number {
  const db = new Database(path, { readonly: true });
  onTestFinished(() => {
    db.close();
  });
  return db.prepare("SELECT count(DISTINCT segid) FROM memories_fts_idx").pluck().get() as number;
}

const batch = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => ({
    key: `k${from + i}`,
    content: `entry ${from + i} about topic${(from + i) % 50} and word${(from + i) % 7}`,
  }));

describe("merging the full-text index after changes", () => {
  it("merges the index into one segment once imports have written 1 000 entries", async () => {
    const path = join(tempDir(), "brain.db");
    const memory = openTestMemory({ path });
    // Small transactions, as a server import streams them, each leaving a segment behind.
    for (let i = 0; i < 900; i += 100) await memory.import(batch(i, 100));
    expect(segments(path)).toBeGreaterThan(1);
    await memory.import(batch(900, 100));
    expect(segments(path)).toBe(1);
    const hits = await memory.recall("topic7 word3", { mode: "bm25", limit: 50 });
    expect(hits.length).toBe(50);
    expect(hits.every((h) => h.content.includes("topic7") || h.content.includes("word3"))).toBe(true);
  });

  it("counts stores and deletes as changes", async () => {
    const merges: Record<string, unknown>[] = [];
    const logger = {
      ...silentLogger,
      debug: (message: string, data?: Record<string, unknown>) => {
        if (message === "full-text index merged") merges.push(data ?? {});
      },
    };
    const memory = openTestMemory({ logger });
    for (let i = 0; i < 600; i++) await memory.store(`s${i}`, `stored note ${i} about topic${i % 9}`);
    for (let i = 0; i < 399; i++) await memory.forget(`s${i}`);
    expect(merges).toEqual([]);
    // The 1 000th change starts an incremental merge; the next write finishes it (a small index).
    await memory.forgetMany([{ key: "s399" }]);
    await memory.store("s999", "one more note about topic1");
    expect(merges).toEqual([
      { changes: 1000, entries: 200, ms: expect.any(Number), steps: expect.any(Number) },
    ]);
    expect(await memory.count()).toBe(201);
    const topic4 = Array.from({ length: 200 }, (_, n) => n + 400).filter((n) => n % 9 === 4);
    const hits = await memory.recall("topic4", { mode: "bm25", limit: 100 });
    expect(hits.map((h) => h.key).sort()).toEqual(topic4.map((n) => `s${n}`).sort());
  });

  it("spreads the merge over the writes that follow, a step each, when small writes crossed the line", async () => {
    const path = join(tempDir(), "brain.db");
    const merges: Record<string, unknown>[] = [];
    const logger = {
      ...silentLogger,
      debug: (message: string, data?: Record<string, unknown>) => {
        if (message === "full-text index merged") merges.push(data ?? {});
      },
    };
    let segmentsAtStart = 0;
    logger.debug = (message: string, data?: Record<string, unknown>) => {
      if (message === "full-text index merged") merges.push(data ?? {});
      if (message === "full-text index merge started") segmentsAtStart = segments(path);
    };
    const memory = openTestMemory({ path, logger });
    await memory.import(batch(0, 20_000)); // a bulk import merges at once
    expect(merges).toEqual([{ changes: 20_000, entries: 20_000, ms: expect.any(Number) }]);
    let writes = 0;
    while (merges.length < 2 && writes < 3_000) {
      await memory.store(`s${writes}`, `stored note ${writes} about topic${writes % 50}`);
      writes++;
    }
    // Started once the stores were a tenth of the store (2 223 of 22 223), finished some stores
    // later, one step per store.
    const { changes, entries, steps } = merges[1] as { changes: number; entries: number; steps: number };
    expect(entries).toBe(20_000 + changes);
    expect(changes).toBe(Math.ceil(entries / 10));
    expect(steps).toBeGreaterThan(1);
    expect(writes - changes).toBe(steps - 1);
    // The segments there were when it started are one now; the stores made meanwhile add their own.
    expect(segmentsAtStart).toBeGreaterThan(1);
    expect(segments(path)).toBeLessThanOrEqual(1 + (steps - 1));
    expect(segments(path)).toBeLessThan(segmentsAtStart);
    expect((await memory.recall("topic7", { mode: "bm25", limit: 3 })).length).toBe(3);
  });

  it("waits for a tenth of the store before merging again", async () => {
    const path = join(tempDir(), "brain.db");
    const memory = openTestMemory({ path });
    await memory.import(batch(0, 20_000));
    expect(segments(path)).toBe(1);
    for (let i = 0; i < 1_500; i += 100) await memory.import(batch(20_000 + i, 100));
    // 1 500 new entries are under a tenth of 21 500: no merge yet.
    expect(segments(path)).toBeGreaterThan(1);
  });
});
