import { join } from "node:path";
import { silentLogger } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { float32ToBlob } from "../../recall/vector-math.js";
import { tempDir } from "../test-support/temp-memory.js";
import { ENCODING_KEY, parseEncoding } from "./encoding-state.js";
import { anisotropicSet, type VectorSet } from "./test-support/vector-sets.js";
import {
  expectCodesOfRows,
  type OpenedIndex,
  openIndex,
  openSetMemory,
  storeVectors,
} from "./test-support/vector-store.js";

const encodingOf = (opened: OpenedIndex) => parseEncoding(opened.meta.get(ENCODING_KEY));

/** A pause the test releases by hand; `reached` resolves when the rebuild waits at the n-th one. */
function pauseAt(n: number) {
  let calls = 0;
  let release: () => void = () => {};
  let reachedResolve: () => void = () => {};
  const reached = new Promise<void>((resolve) => {
    reachedResolve = resolve;
  });
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const pause = async () => {
    calls++;
    if (calls === n) {
      reachedResolve();
      await gate;
    }
  };
  return { pause, reached, release: () => release(), calls: () => calls };
}

/** Writes entry `i` of the set (its row and, as writeEntry does, its code) in one transaction. */
function writeVector(opened: OpenedIndex, set: VectorSet, i: number, vector = set.vectors[i]): number {
  const blob = float32ToBlob(vector as Float32Array);
  return opened.db.transaction(() => {
    const now = new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString();
    const rid = Number(
      opened.db
        .prepare(
          `INSERT INTO memories (id, key, content, created_at, updated_at, embedding, namespace)
           VALUES (?, ?, ?, ?, ?, ?, 'default')
           ON CONFLICT(namespace, key) DO UPDATE SET embedding = excluded.embedding RETURNING rid`,
        )
        .pluck()
        .get(`id-${i}`, `k${i}`, `vector ${i}`, now, now, blob),
    );
    opened.index.upsert(rid, "default", blob);
    return rid;
  })();
}

function deleteVector(opened: OpenedIndex, i: number): void {
  opened.db.transaction(() => {
    opened.index.removeWhere("m.key = ?", [`k${i}`]);
    opened.db.prepare("DELETE FROM memories WHERE key = ?").run(`k${i}`);
  })();
}

/** A store of `stored` vectors whose encoding came from 256 of them (next rebuild at 1,024). */
async function grownStore(set: VectorSet, stored: number): Promise<string> {
  const path = join(tempDir(), "brain.db");
  const memory = openSetMemory(path, set);
  await storeVectors(memory, 0, stored);
  await memory.close();
  return path;
}

describe("vector codes: a growth rebuild reached by a small write", () => {
  it("runs after the write, off the write lock, and keeps what other writes did meanwhile", async () => {
    const set = anisotropicSet(1100, 64, 5, 31);
    const path = await grownStore(set, 1000);
    // Pages of 100 rows: a pause to start, one before each page, 12 for the mean (the last finds
    // no more rows), then the codes' pass, which has encoded 100 rows at the 15th.
    const gate = pauseAt(15);
    const opened = openIndex(path, { inlineRebuildMax: 0, rebuildPageRows: 100, rebuildPause: gate.pause });
    const before = encodingOf(opened);
    expect(before?.basis).toBe(256);
    for (let i = 1000; i < 1024; i++) writeVector(opened, set, i);
    // The write that reached 1,024 codes committed with the old encoding.
    expect(encodingOf(opened)?.build).toBe(before?.build);
    await gate.reached;

    // Meanwhile: another connection writes (nothing holds the lock), a row already encoded is
    // deleted, another gets a new vector, and new rows are written with the old encoding.
    const other = openIndex(path);
    other.db
      .prepare(
        "INSERT INTO memories (id, key, content, created_at, updated_at) VALUES ('x', 'x', 'x', 'x', 'x')",
      )
      .run();
    deleteVector(opened, 3);
    writeVector(opened, set, 5, set.vectors[1099]);
    for (let i = 1024; i < 1030; i++) writeVector(opened, set, i);
    gate.release();
    await opened.index.settled();

    const after = encodingOf(opened);
    expect(after?.build).not.toBe(before?.build);
    // The mean of the vectors stored when it was taken.
    expect(after?.basis).toBe(1024);
    expect(expectCodesOfRows(opened)).toBe(1024 - 1 + 6);
    // This connection's mirror holds the swapped codes: the row given a new vector is found by it.
    const hits = opened.index.search(set.vectors[1099] as Float32Array, 1, {});
    expect(hits.map((h) => opened.indexOf(h.rid))).toEqual([5]);
    expect(opened.index.search(set.vectors[3] as Float32Array, 1, {}).map((h) => h.similarity)).not.toEqual([
      1,
    ]);
    // And the other connection reads them whole (another build).
    const near = other.index.search(set.vectors[1029] as Float32Array, 1, {});
    expect(near.map((h) => other.indexOf(h.rid))).toEqual([1029]);
  });

  // Stopped while it takes the mean (3rd pause), and while it encodes (16th).
  it.each([3, 16])(
    "stops at close before its swap (pause %i): the old encoding and codes stay, and agree",
    async (at) => {
      const set = anisotropicSet(1100, 64, 5, 32);
      const path = await grownStore(set, 1000);
      const gate = pauseAt(at);
      const opened = openIndex(path, { inlineRebuildMax: 0, rebuildPageRows: 100, rebuildPause: gate.pause });
      const before = encodingOf(opened);
      for (let i = 1000; i < 1030; i++) writeVector(opened, set, i);
      await gate.reached;
      const closed = opened.index.close();
      gate.release();
      await closed;
      // No page was read after it stopped.
      expect(gate.calls()).toBe(at);
      expect(encodingOf(opened)).toEqual(before);
      // The codes were written with the old encoding, seq 1..1000 by the import, then one each.
      const reader = openIndex(path);
      expect(expectCodesOfRows(reader)).toBe(1030);
    },
  );

  it("leaves the old codes when its swap fails, says so once, and tries again 1,024 codes later", async () => {
    const set = anisotropicSet(1100, 64, 5, 35);
    const path = await grownStore(set, 1000);
    const warnings: string[] = [];
    const logger = { ...silentLogger, warn: (message: string) => warnings.push(message) };
    const opened = openIndex(path, { inlineRebuildMax: 0, logger });
    // The swap writes seq 1..n; the writes of this test never do.
    opened.db.exec(
      "CREATE TEMP TRIGGER refuse BEFORE INSERT ON memory_codes WHEN NEW.seq = 1 BEGIN SELECT RAISE(ABORT, 'refused'); END",
    );
    const before = encodingOf(opened);
    for (let i = 1000; i < 1024; i++) writeVector(opened, set, i);
    await opened.index.settled();
    expect(warnings).toEqual(["vector codes rebuild failed"]);
    expect(encodingOf(opened)).toEqual(before);
    expect(expectCodesOfRows(opened, false)).toBe(1024);
    opened.db.exec("DROP TRIGGER temp.refuse");
    // Written again (each takes a new seq): not tried before seq 1024 + 1,024.
    for (let i = 0; i < 1023; i++) writeVector(opened, set, i);
    await opened.index.settled();
    expect(encodingOf(opened)?.build).toBe(before?.build);
    writeVector(opened, set, 1023);
    await opened.index.settled();
    expect(warnings).toHaveLength(1);
    expect(encodingOf(opened)?.basis).toBe(1024);
    expect(expectCodesOfRows(opened)).toBe(1024);
  });

  it("runs inside a bulk write whatever its size", async () => {
    const set = anisotropicSet(1100, 64, 5, 33);
    const path = await grownStore(set, 1000);
    const opened = openIndex(path, { inlineRebuildMax: 0 });
    const before = encodingOf(opened);
    opened.index.bulk(() => {
      for (let i = 1000; i < 1030; i++) writeVector(opened, set, i);
    });
    const after = encodingOf(opened);
    expect(after?.build).not.toBe(before?.build);
    expect(after?.basis).toBe(1024);
    expect(expectCodesOfRows(opened)).toBe(1030);
  });

  it("through the store: flush() waits for it, and the codes follow the new mean", async () => {
    const set = anisotropicSet(16_400, 16, 5, 34);
    const path = join(tempDir(), "brain.db");
    const memory = openSetMemory(path, set);
    await storeVectors(memory, 0, 16_380);
    const reader = openIndex(path);
    expect(encodingOf(reader)?.basis).toBe(4096);
    for (let i = 16_380; i < 16_390; i++) await memory.store(`k${i}`, `vector ${i}`);
    await memory.flush();
    // The mean of the vectors stored when it was taken: the store() that reached 16,384 and any
    // written before the rebuild read them.
    expect(encodingOf(reader)?.basis).toBeGreaterThanOrEqual(16_384);
    expect(encodingOf(reader)?.basis).toBeLessThanOrEqual(16_390);
    expect(expectCodesOfRows(reader)).toBe(16_390);
    const hits = await memory.recall("vector 16389", { mode: "embedding", limit: 1 });
    expect(hits.map((e) => e.key)).toEqual(["k16389"]);
  });
});
