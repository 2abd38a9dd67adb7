import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  readWordVectorTable,
  type WordVectorTable,
  wordVectorMap,
  writeWordVectorTable,
} from "./word-vector-table.js";

const table: WordVectorTable = {
  dimensions: 2,
  words: ["dog", "café", "dog", "x"],
  data: new Float32Array([1, 2, 3.5, -4, 5, 6, 0.25, 0]),
};

describe("word-vector table files", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "wvt-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("reads back the words and values it wrote, and leaves no temporary file", async () => {
    const path = join(dir, "round-trip.wvt");
    await writeWordVectorTable(path, table);
    const read = await readWordVectorTable(path);
    expect(read.dimensions).toBe(2);
    expect(read.words).toEqual(table.words);
    expect([...read.data]).toEqual([...table.data]);
    expect(await readdir(dir)).toEqual(["round-trip.wvt"]);
  });

  it("is 16 header bytes, the words padded to 4 bytes, then 4 bytes per value", async () => {
    const path = join(dir, "size.wvt");
    await writeWordVectorTable(path, table);
    const words = Buffer.byteLength("dog\ncafé\ndog\nx");
    expect(words).toBe(15);
    expect((await readFile(path)).length).toBe(16 + 16 + 8 * 4);
  });

  it("reads an empty table", async () => {
    const path = join(dir, "empty.wvt");
    await writeWordVectorTable(path, { dimensions: 3, words: [], data: new Float32Array(0) });
    expect(await readWordVectorTable(path)).toEqual({ dimensions: 3, words: [], data: new Float32Array(0) });
  });

  it("refuses a file that is not a table or was cut short", async () => {
    const other = join(dir, "other.wvt");
    await writeFile(other, "not a table at all");
    await expect(readWordVectorTable(other)).rejects.toThrow(`${other} is not a word-vector table`);
    const full = join(dir, "full.wvt");
    await writeWordVectorTable(full, table);
    const cut = join(dir, "cut.wvt");
    await writeFile(cut, (await readFile(full)).subarray(0, 40));
    await expect(readWordVectorTable(cut)).rejects.toThrow(`${cut} is truncated: 40 bytes for 4 words × 2`);
  });

  it("refuses to write values that do not fit the words, or a word with a newline", async () => {
    const path = join(dir, "bad.wvt");
    await expect(writeWordVectorTable(path, { ...table, data: new Float32Array(3) })).rejects.toThrow(
      "3 values for 4 words × 2",
    );
    await expect(
      writeWordVectorTable(path, { dimensions: 1, words: ["a\nb"], data: new Float32Array(1) }),
    ).rejects.toThrow("a word contains a newline");
  });
});

describe("wordVectorMap", () => {
  it("maps each word to its vector; the first of a repeated word wins", () => {
    const map = wordVectorMap(table);
    expect(map.size).toBe(3);
    expect([...(map.get("dog") ?? [])]).toEqual([1, 2]);
    expect([...(map.get("café") ?? [])]).toEqual([3.5, -4]);
    expect([...(map.get("x") ?? [])]).toEqual([0.25, 0]);
  });

  it("hands out views of the table's memory, not copies", () => {
    expect(wordVectorMap(table).get("x")?.buffer).toBe(table.data.buffer);
  });
});
