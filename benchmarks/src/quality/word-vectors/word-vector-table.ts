/**
 * A compact word-vector table: one Float32Array holding every vector back to back, and the words
 * in the same order. On disk (the cache's binary form, written once from the JSON):
 *
 *   "WVT1" | uint32 count | uint32 dimensions | uint32 words byte length   (little-endian)
 *   words, UTF-8, joined by "\n" | zero padding to a multiple of 4 | count × dimensions float32 (LE)
 *
 * Loading reads the file into one buffer and hands out views into it: no number is parsed, and
 * each word costs a view object rather than an array of boxed numbers.
 */
import { readFile, rename, rm, writeFile } from "node:fs/promises";

export interface WordVectorTable {
  dimensions: number;
  /** Lower-case words, no "\n" in any. */
  words: string[];
  /** words.length × dimensions values; word i's vector starts at i × dimensions. */
  data: Float32Array;
}

/** Word → vector, each vector a view into one shared buffer. */
export type WordVectorMap = ReadonlyMap<string, Float32Array>;

const MAGIC = "WVT1";
const HEADER_BYTES = 16;

/**
 * The table as the pieces of the format above: header with words and padding, then the values.
 * The values are a view of the table's own memory on little-endian machines, not a copy.
 */
export function encodeWordVectorTable(table: WordVectorTable): [Buffer, Buffer] {
  const { dimensions, words, data } = table;
  if (data.length !== words.length * dimensions) {
    throw new Error(`word-vector table: ${data.length} values for ${words.length} words × ${dimensions}`);
  }
  if (words.some((w) => w.includes("\n"))) throw new Error("word-vector table: a word contains a newline");
  const wordBytes = Buffer.from(words.join("\n"), "utf8");
  const head = Buffer.alloc(align4(HEADER_BYTES + wordBytes.length));
  head.write(MAGIC, 0, "latin1");
  head.writeUInt32LE(words.length, 4);
  head.writeUInt32LE(dimensions, 8);
  head.writeUInt32LE(wordBytes.length, 12);
  wordBytes.copy(head, HEADER_BYTES);
  if (LITTLE_ENDIAN) return [head, Buffer.from(data.buffer, data.byteOffset, data.byteLength)];
  const values = Buffer.alloc(data.length * 4);
  for (let i = 0; i < data.length; i++) values.writeFloatLE(data[i] as number, i * 4);
  return [head, values];
}

/** Reads bytes written by encodeWordVectorTable; `source` names the file in errors. */
export function decodeWordVectorTable(bytes: Buffer, source: string): WordVectorTable {
  if (bytes.length < HEADER_BYTES || bytes.toString("latin1", 0, 4) !== MAGIC) {
    throw new Error(`${source} is not a word-vector table (no ${MAGIC} header)`);
  }
  const count = bytes.readUInt32LE(4);
  const dimensions = bytes.readUInt32LE(8);
  const wordLength = bytes.readUInt32LE(12);
  const dataOffset = align4(HEADER_BYTES + wordLength);
  if (bytes.length !== dataOffset + count * dimensions * 4) {
    throw new Error(`${source} is truncated: ${bytes.length} bytes for ${count} words × ${dimensions}`);
  }
  const words =
    count === 0 ? [] : bytes.toString("utf8", HEADER_BYTES, HEADER_BYTES + wordLength).split("\n");
  if (words.length !== count) throw new Error(`${source}: ${words.length} words, header says ${count}`);
  return { dimensions, words, data: float32View(bytes, dataOffset, count * dimensions) };
}

/** Word → vector views into the table's data; the first occurrence of a word wins. */
export function wordVectorMap(table: WordVectorTable): WordVectorMap {
  const map = new Map<string, Float32Array>();
  const { dimensions, data } = table;
  table.words.forEach((word, i) => {
    if (!map.has(word)) map.set(word, data.subarray(i * dimensions, (i + 1) * dimensions));
  });
  return map;
}

/** Writes the table through a temporary file and a rename, so no reader sees half of it. */
export async function writeWordVectorTable(path: string, table: WordVectorTable): Promise<void> {
  const temp = `${path}.${process.pid}.tmp`;
  try {
    await writeFile(temp, encodeWordVectorTable(table));
    await rename(temp, path);
  } finally {
    await rm(temp, { force: true });
  }
}

export async function readWordVectorTable(path: string): Promise<WordVectorTable> {
  return decodeWordVectorTable(await readFile(path), path);
}

function align4(n: number): number {
  return Math.ceil(n / 4) * 4;
}

/** float32 (LE) values at `offset`: a view when the platform is little-endian and aligned, else a copy. */
function float32View(bytes: Buffer, offset: number, length: number): Float32Array {
  const start = bytes.byteOffset + offset;
  if (LITTLE_ENDIAN && start % 4 === 0) return new Float32Array(bytes.buffer, start, length);
  const copy = new Float32Array(length);
  for (let i = 0; i < length; i++) copy[i] = bytes.readFloatLE(offset + i * 4);
  return copy;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
