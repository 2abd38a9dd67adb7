import { describe, expect, it } from "vitest";
import { BinaryCodes } from "./binary-codes.js";
import { NibbleBlocks, nibbleScanAvailable } from "./nibble-blocks.js";
import { mulberry32 } from "./random-rotation.js";
import { type EncodedVector, encodedToBlob, type QueryTables, VectorEncoder } from "./vector-encoder.js";

/** The float tables of coordinates `coords` (one per code bit), as VectorEncoder.query builds them. */
function tablesOf(coords: readonly number[]): Float32Array {
  const table = new Float32Array((coords.length / 8) * 256);
  for (let byte = 0; byte < coords.length / 8; byte++)
    for (let value = 0; value < 256; value++) {
      let sum = 0;
      for (let bit = 0; bit < 8; bit++) if (value & (1 << bit)) sum += coords[byte * 8 + bit] as number;
      table[byte * 256 + value] = sum;
    }
  return table;
}

/**
 * Whole-number coordinates whose widest 4-bit group spans exactly the largest table entry the
 * scan allows for `words` (so its step is 1 and nothing is rounded): its sums are then exact.
 */
function wholeStepCoords(words: number, random: () => number): number[] {
  const top = Math.min(255, Math.floor(65535 / (words * 8)));
  const coords = Array.from({ length: words * 32 }, () => Math.floor(random() * Math.floor(top / 4)));
  const widest = words * 8 - 1;
  for (let i = 0; i < 4; i++) coords[widest * 4 + i] = Math.floor(top / 4) + (i < top % 4 ? 1 : 0);
  return coords;
}

/** Σ of the coordinates where `code` has a 1. */
function floatSum(coords: readonly number[], code: Uint32Array): number {
  let sum = 0;
  for (let bit = 0; bit < coords.length; bit++)
    if (((code[bit >>> 5] as number) >>> (bit & 31)) & 1) sum += coords[bit] as number;
  return sum;
}

const randomCode = (words: number, random: () => number) =>
  Uint32Array.from({ length: words }, () => Math.floor(random() * 2 ** 32));

describe("nibble scan", () => {
  it("runs here: Node has WebAssembly SIMD", () => {
    expect(nibbleScanAvailable()).toBe(true);
    expect(new BinaryCodes(12).scan).toBe("wasm-simd");
    expect(new BinaryCodes(12, { simd: false }).scan).toBe("js");
  });

  it.each([12, 48])(
    "sums each code's table entries exactly when they are whole steps (%i words)",
    (words) => {
      const random = mulberry32(words);
      const coords = wholeStepCoords(words, random);
      const blocks = new NibbleBlocks(words, true);
      // Three whole blocks and part of a fourth, written out of order, some twice.
      const count = 32 * 3 + 5;
      const codes = new Uint32Array(count * words);
      blocks.reserve(count);
      for (const slot of [...Array(count).keys()].reverse().concat([0, 17, 31, 32, 100])) {
        codes.set(randomCode(words, random), slot * words);
        blocks.write(slot, codes, slot * words);
      }
      const { sums, step, base } = blocks.scan(tablesOf(coords), count);
      expect(step).toBe(1);
      expect(base).toBe(0);
      for (let slot = 0; slot < count; slot++)
        expect(sums[slot]).toBe(floatSum(coords, codes.subarray(slot * words, (slot + 1) * words)));
    },
  );

  it("keeps each sum within half a step per 4-bit group of the float sum", () => {
    const dimensions = 384;
    const encoder = new VectorEncoder({
      dimensions,
      seed: 3,
      basis: 0,
      build: "test",
      mean: new Float32Array(dimensions),
    });
    const random = mulberry32(9);
    const query = Float32Array.from({ length: dimensions }, () => random() - 0.3);
    const tables = encoder.query(query).table;
    const coords = Array.from(
      { length: encoder.words * 32 },
      (_, bit) => tables[(bit >>> 3) * 256 + (1 << (bit & 7))] as number,
    );
    const blocks = new NibbleBlocks(encoder.words, true);
    const count = 200;
    const codes = new Uint32Array(count * encoder.words);
    blocks.reserve(count);
    for (let slot = 0; slot < count; slot++) {
      codes.set(randomCode(encoder.words, random), slot * encoder.words);
      blocks.write(slot, codes, slot * encoder.words);
    }
    const { sums, step, base } = blocks.scan(tables, count);
    const bound = (encoder.words * 8 * step) / 2;
    let largest = 0;
    for (let slot = 0; slot < count; slot++) {
      const exact = floatSum(coords, codes.subarray(slot * encoder.words, (slot + 1) * encoder.words));
      largest = Math.max(largest, Math.abs(step * (sums[slot] as number) + base - exact));
    }
    expect(largest).toBeLessThanOrEqual(bound * 1.0001);
    // Rounding errors mostly cancel: far below the bound, and not zero (the tables are not whole steps).
    expect(largest).toBeGreaterThan(0);
    expect(largest).toBeLessThan(bound / 3);
  });

  it("ranks as exact arithmetic on the codes, through sets, replaces, deletes, stored codes and growth", () => {
    const words = 12;
    const random = mulberry32(5);
    const coords = wholeStepCoords(words, random);
    const total = coords.reduce((a, b) => a + b, 0);
    const simd = new BinaryCodes(words);
    const js = new BinaryCodes(words, { simd: false });
    /** What each rid holds, kept apart from both. */
    const model = new Map<number, { encoded: EncodedVector; namespace: string }>();
    // "small" holds 1/20 of the codes: its scans run in JavaScript on both (binary-codes.ts).
    const namespaceOf = (rid: number) => (rid % 20 === 0 ? "small" : rid % 2 ? "a" : "b");
    const put = (rid: number, how: "set" | "setStored" | "appendStored") => {
      const encoded: EncodedVector = {
        code: randomCode(words, random),
        inverseNorm: Math.fround(0.5 + random()),
        scale: Math.fround(0.01 + random() / 10),
      };
      const namespace = namespaceOf(rid);
      model.set(rid, { encoded, namespace });
      for (const codes of [simd, js]) {
        if (how === "set") codes.set(rid, namespace, encoded);
        else codes[how](rid, namespace, encodedToBlob(encoded));
      }
    };
    for (let rid = 1; rid <= 2500; rid++)
      put(rid, rid % 3 === 0 ? "appendStored" : rid % 5 === 0 ? "setStored" : "set");
    for (let i = 0; i < 400; i++) {
      const rid = 1 + Math.floor(random() * 2500);
      if (i % 2 === 0) {
        model.delete(rid);
        simd.delete(rid);
        js.delete(rid);
      } else put(rid, i % 3 === 0 ? "setStored" : "set");
    }
    expect(simd.count).toBe(model.size);
    const best = (query: QueryTables, count: number, rids: Iterable<number>) =>
      [...rids]
        .map((rid) => {
          const { encoded } = model.get(rid) as { encoded: EncodedVector };
          const sum = floatSum(coords, encoded.code);
          return { rid, score: encoded.inverseNorm * query.offset + encoded.scale * (2 * sum - query.total) };
        })
        .sort((x, y) => y.score - x.score)
        .slice(0, count)
        .map((r) => r.rid)
        .sort((x, y) => x - y);
    for (let q = 0; q < 6; q++) {
      const query: QueryTables = { table: tablesOf(coords), total, offset: random() - 0.5 };
      for (const namespace of [undefined, "a", "small"]) {
        const rids = [...model].filter(([, held]) => namespace === undefined || held.namespace === namespace);
        const expected = best(
          query,
          60,
          rids.map(([rid]) => rid),
        );
        expect(simd.nearest(query, 60, namespace).sort((x, y) => x - y)).toEqual(expected);
        expect(js.nearest(query, 60, namespace).sort((x, y) => x - y)).toEqual(expected);
      }
      // A seventh of the codes is scanned in WebAssembly, a 29th in JavaScript.
      for (const every of [7, 29]) {
        const among = [...model.keys()].filter((rid) => rid % every === 0);
        expect(simd.nearestAmong(query, 20, among).sort((x, y) => x - y)).toEqual(best(query, 20, among));
        expect(js.nearestAmong(query, 20, among).sort((x, y) => x - y)).toEqual(best(query, 20, among));
      }
      coords.reverse();
    }
  });
});
