import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it, onTestFinished } from "vitest";
import { tempDir } from "../test-support/temp-memory.js";
import { ENCODING_KEY, MAX_BASIS, parseEncoding, rebuildAt, serializeEncoding } from "./encoding-state.js";
import { anisotropicSet, recallAtK, sparseSet, type VectorSet } from "./test-support/vector-sets.js";
import {
  type OpenedIndex,
  openIndex,
  openSetMemory,
  storeVectors,
  textOf,
} from "./test-support/vector-store.js";

const encodingOf = (opened: { meta: OpenedIndex["meta"] }) => parseEncoding(opened.meta.get(ENCODING_KEY));

function meanRecall(opened: OpenedIndex, set: VectorSet): number {
  let sum = 0;
  for (const query of set.queries) {
    const found = opened.index.search(query, 10, {}).map((hit) => opened.indexOf(hit.rid));
    sum += recallAtK(set, query, found, 10);
  }
  return sum / set.queries.length;
}

/** A store of 300 vectors made to look like one of the previous version: sign-bit codes, no encoding. */
async function oldStore(set: VectorSet): Promise<string> {
  const path = join(tempDir(), "brain.db");
  const memory = openSetMemory(path, set);
  await storeVectors(memory, 0, set.vectors.length);
  await memory.close();
  const db = new Database(path);
  db.prepare("DELETE FROM meta WHERE key = ?").run(ENCODING_KEY);
  db.prepare("UPDATE memory_codes SET code = zeroblob(?), seq = 0").run(set.dimensions / 8);
  db.close();
  return path;
}

function storedCodes(path: string): Array<{ seq: number; bytes: number }> {
  const db = new Database(path, { readonly: true });
  onTestFinished(() => {
    db.close();
  });
  return db.prepare("SELECT seq, length(code) AS bytes FROM memory_codes ORDER BY seq").all() as Array<{
    seq: number;
    bytes: number;
  }>;
}

describe("vector codes rebuild", () => {
  it("rebuilds around a fresh mean as the store grows, and another connection reads the new codes", async () => {
    const set = sparseSet(1300, 128, 30, 21);
    const path = join(tempDir(), "brain.db");
    const memory = openSetMemory(path, set);
    await storeVectors(memory, 0, 200);
    const reader = openIndex(path, { minCandidates: 60 });
    const first = encodingOf(reader);
    // Built when the store was empty: no mean yet, and too few vectors for one to be due.
    expect(first?.basis).toBe(0);
    expect(Math.max(...(first?.mean ?? []))).toBe(0);
    expect(reader.index.search(set.queries[0] as Float32Array, 10, {}).length).toBeGreaterThan(0);

    await storeVectors(memory, 200, 1300);
    // Rebuilt at 256 codes and again at 4 × 256 = 1024.
    const last = encodingOf(reader);
    expect(last?.basis).toBe(1024);
    expect(last?.build).not.toBe(first?.build);
    const codes = storedCodes(path);
    expect(codes).toHaveLength(1300);
    expect(codes.map((c) => c.seq)).toEqual(Array.from({ length: 1300 }, (_, i) => i + 1));
    expect(new Set(codes.map((c) => c.bytes))).toEqual(new Set([128 / 8 + 8]));
    // The mean is the mean of the 1024 vectors stored when it was computed.
    const rids = reader.db
      .prepare("SELECT rid FROM memory_codes WHERE seq <= 1024")
      .pluck()
      .all() as number[];
    const expected = new Float64Array(128);
    for (const rid of rids) {
      const v = set.vectors[reader.indexOf(rid)] as Float32Array;
      for (let i = 0; i < 128; i++) expected[i] = (expected[i] as number) + (v[i] as number) / rids.length;
    }
    for (let i = 0; i < 128; i++) expect(last?.mean[i]).toBeCloseTo(expected[i] as number, 5);

    // The reader had mirrored the first build; with its codes and tables it would rank by the wrong mean.
    expect(meanRecall(reader, set)).toBeGreaterThanOrEqual(0.95);
  });

  it("rebuilds the codes of a store from before the encoding once, on open", async () => {
    const set = anisotropicSet(300, 64, 5, 3);
    const path = await oldStore(set);
    const memory = openSetMemory(path, set);
    const reader = openIndex(path);
    const encoding = encodingOf(reader);
    expect(encoding?.basis).toBe(300);
    expect(encoding?.dimensions).toBe(64);
    expect(storedCodes(path)).toEqual(Array.from({ length: 300 }, (_, i) => ({ seq: i + 1, bytes: 16 })));
    const hits = await memory.recall(textOf(42), { mode: "embedding", limit: 1 });
    expect(hits.map((e) => e.key)).toEqual(["k42"]);
    await memory.close();
    // Opened again, nothing is rebuilt.
    const again = openSetMemory(path, set);
    expect((await again.recall(textOf(7), { mode: "embedding", limit: 1 })).map((e) => e.key)).toEqual([
      "k7",
    ]);
    expect(encodingOf(reader)?.build).toBe(encoding?.build);
  });

  it("leaves the old codes when a rebuild fails half-way, and the next open rebuilds them", async () => {
    const set = anisotropicSet(300, 64, 5, 4);
    const path = await oldStore(set);
    const opened = openIndex(path);
    // Stands in for a process killed mid-rebuild: the transaction never commits.
    opened.db.exec(
      "CREATE TEMP TRIGGER killed BEFORE INSERT ON memory_codes WHEN NEW.seq = 150 BEGIN SELECT RAISE(ABORT, 'killed'); END",
    );
    expect(() => opened.index.ensure(64)).toThrow(/killed/);
    expect(encodingOf(opened)).toBeNull();
    expect(storedCodes(path)).toEqual(Array.from({ length: 300 }, () => ({ seq: 0, bytes: 8 })));
    opened.db.exec("DROP TRIGGER temp.killed");

    const memory = openSetMemory(path, set);
    expect(encodingOf(opened)?.basis).toBe(300);
    expect(storedCodes(path).every((c) => c.bytes === 16)).toBe(true);
    expect((await memory.recall(textOf(9), { mode: "embedding", limit: 1 })).map((e) => e.key)).toEqual([
      "k9",
    ]);
  });

  it("stores the encoding in one meta value, and stops recomputing the mean once it came from enough vectors", () => {
    const encoding = {
      dimensions: 3,
      seed: 9,
      basis: 300,
      build: "b1",
      mean: Float32Array.from([0.5, -1, 2]),
    };
    const parsed = parseEncoding(serializeEncoding(encoding));
    expect({ ...parsed, mean: [...(parsed?.mean ?? [])] }).toEqual({ ...encoding, mean: [0.5, -1, 2] });
    expect(parseEncoding(undefined)).toBeNull();
    expect(parseEncoding("{")).toBeNull();
    expect(parseEncoding(serializeEncoding(encoding).replace('"version":2', '"version":1'))).toBeNull();
    // A mean of more than a quarter of MAX_BASIS vectors is rebuilt once more, at MAX_BASIS codes.
    expect([0, 256, 300, 16384, 20000, MAX_BASIS].map((basis) => rebuildAt({ ...encoding, basis }))).toEqual([
      256,
      1024,
      1200,
      65536,
      65536,
      Number.POSITIVE_INFINITY,
    ]);
  });
});
